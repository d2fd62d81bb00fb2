import type { ReadModels } from "./projection";
import type { Projection } from "./projection";
import type { DeviceCodeIssuedData } from "../events";

export const deviceProjection: Projection = {
  name: "device",
  tables: ["device_codes"],
  ddl: `CREATE TABLE IF NOT EXISTS device_codes (
    code_id TEXT PRIMARY KEY,
    device_code_hash TEXT NOT NULL UNIQUE,
    user_code TEXT NOT NULL,
    client_id TEXT,
    scopes TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    interval_seconds INTEGER NOT NULL,
    status TEXT NOT NULL,
    person_id TEXT,
    customer_id TEXT,
    key_id TEXT,
    decided_at TEXT
  );
  CREATE INDEX IF NOT EXISTS device_codes_user_code ON device_codes (user_code)`,
  apply(db, e) {
    switch (e.type) {
      case "DeviceCodeIssued": {
        const d = e.data;
        db.query(
          `INSERT INTO device_codes (code_id, device_code_hash, user_code, client_id, scopes, expires_at, interval_seconds, status)
           VALUES (?, ?, ?, ?, ?, ?, ?, 'pending')`,
        ).run(
          d.codeId,
          d.deviceCodeHash,
          d.userCode,
          d.clientId ?? null,
          JSON.stringify(d.scopes),
          d.expiresAt,
          d.interval,
        );
        break;
      }
      case "DeviceCodeSlowedDown":
        db.query("UPDATE device_codes SET interval_seconds = ? WHERE code_id = ?").run(e.data.interval, e.data.codeId);
        break;
      case "DeviceCodeApproved":
        db.query(
          "UPDATE device_codes SET status = 'approved', person_id = ?, customer_id = ?, decided_at = ? WHERE code_id = ?",
        ).run(e.data.personId, e.data.customerId, e.recordedAt, e.data.codeId);
        break;
      case "DeviceCodeDenied":
        db.query("UPDATE device_codes SET status = 'denied', person_id = ?, decided_at = ? WHERE code_id = ?").run(
          e.data.personId,
          e.recordedAt,
          e.data.codeId,
        );
        break;
      case "DeviceCodeRedeemed":
        db.query("UPDATE device_codes SET status = 'redeemed', key_id = ? WHERE code_id = ?").run(
          e.data.keyId,
          e.data.codeId,
        );
        break;
    }
  },
};

export type DeviceCodeStatus = "pending" | "approved" | "denied" | "redeemed";

/** A device authorization as the log knows it. */
export interface DeviceCode {
  codeId: string;
  userCode: string;
  clientId: string | null;
  scopes: DeviceCodeIssuedData["scopes"];
  expiresAt: string;
  /** The least number of seconds between two token requests, as issued (or grown by a DeviceCodeSlowedDown of an older log). */
  interval: number;
  status: DeviceCodeStatus;
  /** Who approved or denied; the organization approved for. */
  personId: string | null;
  customerId: string | null;
}

type Row = Omit<DeviceCode, "scopes" | "status"> & { scopes: string; status: DeviceCodeStatus };
const SELECT = `SELECT code_id AS codeId, user_code AS userCode, client_id AS clientId, scopes, expires_at AS expiresAt,
  interval_seconds AS interval, status, person_id AS personId, customer_id AS customerId FROM device_codes`;
const fromRow = (r: Row | null): DeviceCode | null => (r ? { ...r, scopes: JSON.parse(r.scopes) } : null);

export function findDeviceCodeByHash(db: ReadModels, deviceCodeHash: string): DeviceCode | null {
  return fromRow(db.query<Row, [string]>(`${SELECT} WHERE device_code_hash = ?`).get(deviceCodeHash));
}

/** The pending request a user code names (user codes are short, so only a pending one may be found by it). */
export function findPendingDeviceCode(db: ReadModels, userCode: string, now: string): DeviceCode | null {
  return fromRow(
    db
      .query<Row, [string, string]>(`${SELECT} WHERE user_code = ? AND status = 'pending' AND expires_at > ?`)
      .get(userCode, now),
  );
}
