import type { ConfigView } from '@shared/ipc';
import { profileTarget } from '@shared/ipc';
import { profileTestId } from '../../../test-ids';
import { useBridge, useWorkbenchStore } from '../../../store/StoreProvider';
import { AgentProfiles } from './AgentProfiles';
import { ProfileCard } from './ProfileCard';
import { ProfileNameForm } from './ProfileNameForm';

/**
 * Settings → Profiles: every model profile as an object (create, edit, test, rename,
 * duplicate, delete, who uses it, its price), and which profile each agent uses.
 */
export function ProfilesPage({ config }: { config: ConfigView }) {
  const bridge = useBridge();
  const store = useWorkbenchStore();
  const isBroken = config.error !== undefined;
  return (
    <section className="profiles-page" aria-label="Model profiles">
      <p className="muted profile-note">
        A profile is a model to run agents with: [llm] is the default, and each [llm.NAME] changes
        what it sets. New run and Batch can pick any of them for one run.
      </p>
      {isBroken ? (
        <p className="muted">
          Fix config.toml first: profiles cannot be changed while it has errors.
        </p>
      ) : (
        <div className="profile-create" data-testid={profileTestId('create')}>
          <span>New profile</span>
          <ProfileNameForm
            existing={config.profiles}
            action="Create"
            onSubmit={async (name) => {
              await bridge.settings.editProfile({ action: 'create', name });
              store.getState().showConfig(profileTarget(name));
            }}
          />
        </div>
      )}
      <ul className="profile-list">
        {config.profileViews.map((profile) => (
          <ProfileCard key={profile.name} profile={profile} names={config.profiles} />
        ))}
      </ul>
      {!isBroken && <AgentProfiles config={config} />}
    </section>
  );
}
