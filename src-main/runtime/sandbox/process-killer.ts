/**
 * Kills a command and everything it started, inside the container. A client-side
 * timeout alone leaves the process running (reliability.md finding 3), so on timeout or
 * cancel we run this small bash program in the container as the sandbox user. It walks
 * /proc (no procps needed: python:3.12-slim has none), freezes the victims with SIGSTOP
 * so they cannot fork replacements, then SIGKILLs them, and repeats until none are left.
 *
 * Victims are chosen by what survives re-parenting to init:
 * - `session SID [PGID...]`: every process of the shell's session except the shell itself
 *   and the listed process groups (background jobs started by earlier commands);
 *   `session-all SID`: the whole session, shell included;
 * - `marker TOKEN`: every process whose initial environment carries WB_EXEC=TOKEN (a
 *   one-shot exec and what it exec'd), plus every process in their sessions.
 * Arguments travel as argv, never inside the script text.
 */
export const KILLER_SCRIPT = `
mode=$1; target=$2; shift 2
excluded=" $* "
self=$$
sids=" "
if [ "$mode" = marker ]; then
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    [ "$p" = "$self" ] && continue
    found=
    { while IFS= read -r -d '' e; do
        if [ "$e" = "WB_EXEC=$target" ]; then found=1; break; fi
      done < "$d/environ"; } 2>/dev/null
    [ -n "$found" ] || continue
    { read -r stat < "$d/stat"; } 2>/dev/null || continue
    rest=\${stat##*) }
    set -- $rest
    sids="$sids$4 "
  done
fi
killed=0
for round in 1 2 3 4 5 6 7 8 9 10; do
  victims=
  for d in /proc/[0-9]*; do
    p=\${d#/proc/}
    [ "$p" = "$self" ] && continue
    [ "$p" = 1 ] && continue
    { read -r stat < "$d/stat"; } 2>/dev/null || continue
    rest=\${stat##*) }
    set -- $rest
    state=$1; pgrp=$3; sid=$4
    [ "$state" = Z ] && continue
    if [ "$mode" = session ] || [ "$mode" = session-all ]; then
      [ "$sid" = "$target" ] || continue
      [ "$mode" = session ] && [ "$p" = "$target" ] && continue
      case "$excluded" in *" $pgrp "*) continue ;; esac
    else
      case "$sids" in *" $sid "*) ;; *) continue ;; esac
    fi
    victims="$victims $p"
  done
  [ -z "$victims" ] && break
  kill -STOP $victims 2>/dev/null
  kill -KILL $victims 2>/dev/null
  set -- $victims
  [ "$killed" = 0 ] && killed=$#
done
echo "$killed"
`;

/** argv for killing the foreground work of a persistent shell (the shell itself survives). */
export function killShellWorkArgv(shellPid: number, keepPgids: number[]): string[] {
  return [
    'bash',
    '-c',
    KILLER_SCRIPT,
    'wb-killer',
    'session',
    String(shellPid),
    ...keepPgids.map(String),
  ];
}

/** argv for killing a persistent shell and everything it started. */
export function killShellArgv(shellPid: number): string[] {
  return ['bash', '-c', KILLER_SCRIPT, 'wb-killer', 'session-all', String(shellPid)];
}

/** argv for killing a one-shot exec started with WB_EXEC=<token> and its descendants. */
export function killMarkedArgv(token: string): string[] {
  if (!/^[A-Za-z0-9]+$/.test(token)) throw new Error('exec marker tokens are alphanumeric');
  return ['bash', '-c', KILLER_SCRIPT, 'wb-killer', 'marker', token];
}
