import { CliKeysView } from "@/components/cli-keys/cli-keys-view";
import { accessKeyLists } from "@/components/cli-keys/query-keys";
import { pageOrigin } from "@/server/auth/request-meta";
import { ACCESS_KEY_CREDENTIAL, listAccessKeyPage } from "@/server/cli-auth/keys";
import { credentialsPage } from "../credentials-page";

/** Both Command line pages (one's own access keys, everyone's); a new key's login command names this desk. */
export const CliPage = credentialsPage({
  title: "Command line",
  description: {
    all: "Every staff member's access keys of the command line. Revoke one that should not be used any more: its sessions end at once.",
    mine: "Access keys sign the brokerdesk command line's requests as you: log in with a key and your authenticator's code (Settings → Security); each command acts with your current role, within the key's scopes.",
  },
  credential: ACCESS_KEY_CREDENTIAL,
  lists: accessKeyLists,
  list: listAccessKeyPage,
  body: async (view, me, canManage) => <CliKeysView view={view} meId={me.id} canManage={canManage} deskUrl={await pageOrigin()} />,
});
