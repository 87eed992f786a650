// SPDX-License-Identifier: Apache-2.0
import TenderCore
import TenderStore

/// What a host brings to an engine (tender_engine_new_with_host): its
/// directory, made over the store that keeps the vocabulary, the shortcuts
/// and the signed-in flag, and its payment backend.
public struct HostPorts: Sendable {
    /// The host's directory over the engine's store.
    public let directory: @Sendable (SQLiteStore) -> any Directory & DirectoryAdmin
    /// The host's can_send and send.
    public let backend: any PaymentBackend

    public init(directory: @escaping @Sendable (SQLiteStore) -> any Directory & DirectoryAdmin, backend: any PaymentBackend) {
        self.directory = directory
        self.backend = backend
    }
}
