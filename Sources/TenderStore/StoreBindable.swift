// SPDX-License-Identifier: Apache-2.0

/// A value a statement's `?` placeholder takes, as either engine binds it.
package enum StoreValue {
    case null
    case text(String)
    case integer(Int64)
    case bytes([UInt8])
}

/// A type a ``StoreDatabase`` statement binds: String, Int64, Int, Bool, [UInt8], or an Optional of one
/// (nil binds NULL). Each type answers its ``StoreValue`` (a protocol witness), so binding needs no dynamic cast.
package protocol StoreBindable {
    /// The value as the engines bind it.
    var storeValue: StoreValue { get }
}

extension String: StoreBindable {
    package var storeValue: StoreValue { .text(self) }
}

extension Int64: StoreBindable {
    package var storeValue: StoreValue { .integer(self) }
}

extension Int: StoreBindable {
    package var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Bool: StoreBindable {
    package var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Array: StoreBindable where Element == UInt8 {
    package var storeValue: StoreValue { .bytes(self) }
}

extension Optional: StoreBindable where Wrapped: StoreBindable {
    package var storeValue: StoreValue { self?.storeValue ?? .null }
}
