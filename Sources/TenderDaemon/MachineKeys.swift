// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderPostgres
import TenderStore

/// `tenderd --uid UID --keys | --enroll-key KID | --revoke-key KID`: a key per machine on the PostgreSQL store
/// (docs/scale.md). Run as tenderd's user on a machine whose key signs for the person: listing shows every key the
/// store records for them and its state; enrolling signs another machine's pending key into their ledger; revoking
/// signs its revocation (verify then refuses what it signs after), with every key it enrolled.
enum MachineKeys {
    /// What to do.
    enum Action: Equatable {
        case list
        case enroll(String)
        case revoke(String)
    }

    /// Runs `action` for `uid`; says one JSON line (or the error); returns the exit status.
    static func run(_ action: Action, uid: UInt32, state: String, location: PostgresLocation, say: (String) -> Void) -> Int32 {
        let pool = PostgresPool(location: location, size: 2)
        do throws(TenderError) {
            let store = try PostgresStore.open(pool: pool, uid: uid, home: state + "/" + String(uid))
            let output: JSONValue
            switch action {
            case .list:
                output = .object([("keys", .array(try store.keyStates().map { key in
                    .object([("kid", .string(key.keyID)), ("state", .string(key.state)), ("here", .bool(key.here))])
                }))])
            case let .enroll(kid):
                output = .object([("enrolled", .string(try store.enrollKey(kid).keyID))])
            case let .revoke(kid):
                output = .object([("revoked", .array(try store.revokeKey(kid).map(JSONValue.string)))])
            }
            print(JSONWriter.string(output))
            return 0
        } catch {
            say("tenderd: uid \(uid): \(error.message) (\(error.brokerBody.first?.value.stringValue ?? ""))")
            return 1
        }
    }
}
