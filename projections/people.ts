import type { ReadModels } from "./projection";
import type { Projection } from "./projection";

export const peopleProjection: Projection = {
  name: "people",
  tables: ["people", "memberships"],
  ddl: `CREATE TABLE IF NOT EXISTS people (
    person_id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    email_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS memberships (
    person_id TEXT NOT NULL,
    customer_id TEXT NOT NULL,
    role TEXT NOT NULL,
    created_at TEXT NOT NULL,
    created_position INTEGER NOT NULL,
    PRIMARY KEY (person_id, customer_id)
  )`,
  apply(db, e) {
    switch (e.type) {
      case "PersonRegistered":
        db.query("INSERT INTO people (person_id, email, email_hash, created_at) VALUES (?, ?, ?, ?)").run(
          e.data.personId,
          e.data.email,
          e.data.emailHash,
          e.recordedAt,
        );
        break;
      case "MemberAdded":
        db.query(
          "INSERT INTO memberships (person_id, customer_id, role, created_at, created_position) VALUES (?, ?, ?, ?, ?)",
        ).run(e.data.personId, e.data.customerId, e.data.role, e.recordedAt, e.position);
        break;
      case "MemberRoleChanged":
        db.query("UPDATE memberships SET role = ? WHERE person_id = ? AND customer_id = ?").run(
          e.data.role,
          e.data.personId,
          e.data.customerId,
        );
        break;
      case "MemberRemoved":
        db.query("DELETE FROM memberships WHERE person_id = ? AND customer_id = ?").run(
          e.data.personId,
          e.data.customerId,
        );
        break;
    }
  },
};

export interface Person {
  personId: string;
  email: string;
}

export interface Membership {
  customerId: string;
  orgCode: string;
  role: "admin" | "member";
}

/** The person with this email, and their memberships, as the deciders want them. */
export function findPersonByEmailHash(
  db: ReadModels,
  emailHash: string,
): (Person & { memberships: Membership[] }) | null {
  const person = db
    .query<Person, [string]>("SELECT person_id AS personId, email FROM people WHERE email_hash = ?")
    .get(emailHash);
  return person ? { ...person, memberships: membershipsOf(db, person.personId) } : null;
}

export function findPerson(db: ReadModels, personId: string): Person | null {
  return db
    .query<Person, [string]>("SELECT person_id AS personId, email FROM people WHERE person_id = ?")
    .get(personId);
}

/** A person's organizations, in the order joined. */
export function membershipsOf(db: ReadModels, personId: string): Membership[] {
  return db
    .query<Membership, [string]>(
      `SELECT m.customer_id AS customerId, o.org_code AS orgCode, m.role FROM memberships m
       JOIN organizations o ON o.customer_id = m.customer_id WHERE m.person_id = ? ORDER BY m.created_position`,
    )
    .all(personId);
}

export interface OrganizationMember {
  personId: string;
  email: string;
  role: "admin" | "member";
  joinedAt: string;
}

/** An organization's members, in the order they joined. */
export function membersOf(db: ReadModels, customerId: string): OrganizationMember[] {
  return db
    .query<OrganizationMember, [string]>(
      `SELECT m.person_id AS personId, p.email, m.role, m.created_at AS joinedAt FROM memberships m
       JOIN people p ON p.person_id = m.person_id WHERE m.customer_id = ? ORDER BY m.created_position`,
    )
    .all(customerId);
}
