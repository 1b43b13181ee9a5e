#!/usr/bin/env bash
# System setup for developers and CI: idempotent. Installs the Debian packages the
# tests need, starts a Docker engine when none answers, and builds the local sandbox
# image. Prints what it did and how long each part took.
set -euo pipefail

IMAGE="${WORKBENCH_SANDBOX_IMAGE:-agent-workbench/sandbox:local}"
# podman + catatonit (its --init) + openssl: the sandbox suite's second engines (npm run test:engines).
# Packages install without recommends, so podman's recommends that the suite ran with
# (network stack, uidmap, slirp4netns, fuse-overlayfs) are named here.
# openssh-server: the engine reached over ssh:// in engine-pool.int.test.ts (its own sshd).
# python3-venv: the Python clients the gateway and sandbox-MCP suites drive (openai, mcp).
PACKAGES=(docker.io chromium xvfb debootstrap iproute2 procps podman catatonit netavark aardvark-dns
  uidmap slirp4netns fuse-overlayfs openssl curl openssh-server openssh-client python3-venv)
# The Python used by tests that drive third-party Python clients (found by src-main/runtime/util/testing/python-env.ts).
PYENV="${WORKBENCH_TEST_PYENV:-/opt/workbench-pyenv}"
PY_PACKAGES=(openai mcp)
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

now() { date +%s.%N; }
took() { awk -v s="$1" -v e="$(now)" 'BEGIN { printf "%.1fs", e - s }'; }
log() { printf '[setup] %s\n' "$*"; }

# 1. Debian packages --------------------------------------------------------
t=$(now)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  log "packages installed in $(took "$t")"
else
  log "Debian packages already present (${PACKAGES[*]}) ($(took "$t"))"
fi

# 2. Docker engine ------------------------------------------------------------
t=$(now)
engine_answers() { timeout 5 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }
if engine_answers; then
  log "Docker engine already answering ($(took "$t"))"
else
  DOCKERD=$(command -v dockerd || true)
  [ -n "$DOCKERD" ] || { log "dockerd not found after install"; exit 1; }
  log "starting dockerd (log: /var/log/dockerd.log)"
  # No init system here: start it detached so it outlives this script.
  $SUDO sh -c "nohup '$DOCKERD' >/var/log/dockerd.log 2>&1 &"
  for _ in $(seq 1 60); do
    engine_answers && break
    sleep 1
  done
  engine_answers || { log "dockerd did not answer within 60s; last log lines:"; tail -20 /var/log/dockerd.log; exit 1; }
  log "Docker engine $(docker version --format '{{.Server.Version}}') ready in $(took "$t")"
fi

# 3. Local sandbox image ------------------------------------------------------
t=$(now)
if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  log "sandbox image $IMAGE already present ($(took "$t"))"
else
  log "building sandbox image $IMAGE from Debian packages (debootstrap, ~40-90s)"
  root=$(mktemp -d /tmp/wb-sandbox-root.XXXXXX)
  trap '$SUDO rm -rf "$root"' EXIT
  $SUDO debootstrap --variant=minbase --include=python3,procps bookworm "$root" http://deb.debian.org/debian >/tmp/wb-debootstrap.log 2>&1 \
    || { log "debootstrap failed; see /tmp/wb-debootstrap.log"; tail -20 /tmp/wb-debootstrap.log; exit 1; }
  # A non-root user the sandbox runs as (uid 1000), and a workspace it owns.
  $SUDO chroot "$root" sh -c 'groupadd -g 1000 sandbox && useradd -u 1000 -g 1000 -M -d /workspace -s /bin/bash sandbox && mkdir -p /workspace && chown 1000:1000 /workspace'
  $SUDO rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
  $SUDO tar -C "$root" -c . | docker import \
    --change 'WORKDIR /workspace' --change 'CMD ["sleep","infinity"]' \
    --change 'LABEL org.opencontainers.image.title=agent-workbench-sandbox' - "$IMAGE" >/dev/null
  log "sandbox image $IMAGE built in $(took "$t")"
fi

# 4. Python clients for the tests ---------------------------------------------
t=$(now)
if [ -x "$PYENV/bin/python" ] && "$PYENV/bin/python" -c 'import openai, mcp' 2>/dev/null; then
  log "Python test clients already in $PYENV ($(took "$t"))"
else
  log "installing Python test clients (${PY_PACKAGES[*]}) into $PYENV"
  $SUDO python3 -m venv "$PYENV"
  # pip reaches only a local index on these machines; retries against absent indexes are noise.
  $SUDO "$PYENV/bin/pip" install -q --retries 0 "${PY_PACKAGES[@]}" >/tmp/wb-pip.log 2>&1 \
    || { log "pip install failed; see /tmp/wb-pip.log"; tail -20 /tmp/wb-pip.log; exit 1; }
  "$PYENV/bin/python" -c 'import openai, mcp' || { log "openai/mcp do not import from $PYENV"; exit 1; }
  log "Python test clients ready in $(took "$t")"
fi
log "done"
