import { Csrf, DashboardPage, type ShellProps } from "./shell";
import { ScrollRegion } from "../layout";

export interface MemberRow {
  personId: string;
  email: string;
  role: string;
  joinedAt: string;
}

export interface InvitationRow {
  invitationId: string;
  email: string;
  role: string;
  invitedAt: string;
  expiresAt: string;
}

export interface MembersProps {
  shell: ShellProps;
  /** The signed-in person: their row offers Leave, not Remove. */
  personId: string;
  members: MemberRow[];
  invitations: InvitationRow[];
  /** The roles a member may have. */
  roles: string[];
  done?: string;
  message?: string;
}

const when = (iso: string) => <time datetime={iso}>{iso.slice(0, 16).replace("T", " ")} UTC</time>;

function RoleOptions(props: { roles: string[]; selected?: string }) {
  return (
    <>
      {props.roles.map((r) => (
        <option value={r} selected={r === props.selected}>
          {r}
        </option>
      ))}
    </>
  );
}

/** An admin's forms for one member: change the role, remove. */
function AdminActions(props: { member: MemberRow; roles: string[]; csrfToken: string; self: boolean }) {
  const { member } = props;
  return (
    <>
      <form method="post" action={`/dashboard/members/${encodeURIComponent(member.personId)}/role`} class="inline-form">
        <Csrf token={props.csrfToken} />
        <label class="visually-hidden" for={`role-${member.personId}`}>
          Role of <span safe>{member.email}</span>
        </label>
        <select id={`role-${member.personId}`} name="role">
          <RoleOptions roles={props.roles} selected={member.role} />
        </select>{" "}
        <button type="submit" class="small secondary" aria-label={`Change role of ${member.email}`}>
          Change role
        </button>
      </form>{" "}
      {props.self ? (
        ""
      ) : (
        <form
          method="post"
          action={`/dashboard/members/${encodeURIComponent(member.personId)}/remove`}
          class="inline-form"
        >
          <Csrf token={props.csrfToken} />
          <button type="submit" class="small secondary" aria-label={`Remove ${member.email}`}>
            Remove
          </button>
        </form>
      )}
    </>
  );
}

export function MembersView(props: MembersProps) {
  const { shell } = props;
  const admin = shell.role === "admin";
  return (
    <DashboardPage
      shell={shell}
      title="Members"
      description="The members of your organization and its pending invitations."
      done={props.done}
      message={props.message}
    >
      <h2>Members</h2>
      <ScrollRegion label="Members">
        <table class="cards-narrow">
          <caption class="visually-hidden">Members</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {admin ? <th scope="col">Actions</th> : ""}
            </tr>
          </thead>
          <tbody>
            {props.members.map((m) => (
              <tr id={m.personId}>
                <td data-label="Email">
                  <span safe>{m.email}</span>
                  {m.personId === props.personId ? " (you)" : ""}
                </td>
                <td data-label="Role" class="role" safe>
                  {m.role}
                </td>
                <td data-label="Joined">{when(m.joinedAt)}</td>
                {admin ? (
                  <td data-label="Actions">
                    <AdminActions
                      member={m}
                      roles={props.roles}
                      csrfToken={shell.csrfToken}
                      self={m.personId === props.personId}
                    />
                  </td>
                ) : (
                  ""
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      <h2>Pending invitations</h2>
      {props.invitations.length === 0 ? (
        <p>No pending invitations.</p>
      ) : (
        <ScrollRegion label="Pending invitations">
          <table class="cards-narrow">
            <caption class="visually-hidden">Pending invitations</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited</th>
                <th scope="col">Link works until</th>
              </tr>
            </thead>
            <tbody>
              {props.invitations.map((i) => (
                <tr id={i.invitationId}>
                  <td data-label="Email" safe>
                    {i.email}
                  </td>
                  <td data-label="Role" safe>
                    {i.role}
                  </td>
                  <td data-label="Invited">{when(i.invitedAt)}</td>
                  <td data-label="Link works until">{when(i.expiresAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {admin ? (
        <>
          <h2>Invite someone</h2>
          <form method="post" action="/dashboard/members/invite">
            <Csrf token={shell.csrfToken} />
            <label for="invite-email">Email</label>
            <input id="invite-email" name="email" type="email" maxlength="254" autocomplete="off" required />
            <label for="invite-role">Role</label>
            <select id="invite-role" name="role">
              <RoleOptions roles={props.roles} selected="member" />
            </select>
            <p>The invitation link goes to that email and works once, for a limited time.</p>
            <button type="submit">Send invitation</button>
          </form>
        </>
      ) : (
        ""
      )}
      <h2>Leave the organization</h2>
      <form method="post" action="/dashboard/members/leave">
        <Csrf token={shell.csrfToken} />
        <p>
          You stop being a member; the keys you minted for this organization are revoked. An organization keeps at least
          one admin.
        </p>
        <button type="submit" class="secondary">
          Leave this organization
        </button>
      </form>
    </DashboardPage>
  );
}
