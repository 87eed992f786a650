// SPDX-License-Identifier: Apache-2.0
internal import CPAM
internal import Glibc
import TenderCore

/// The ``Authenticator`` port on Linux-PAM: `pam_authenticate` then
/// `pam_acct_mgmt`, with `PAM_SILENT | PAM_DISALLOW_NULL_AUTHTOK`, one PAM
/// handle per attempt, the user checked unchanged afterwards. Thread-safe.
public final class PAMAuthenticator: Authenticator {
    public let user: String
    public let service: String
    /// The directory given to `pam_start_confdir`, or nil for the system's.
    public let configDirectory: String?

    /// An authenticator for `service` and the user the process runs as (or
    /// `user`: for tests run as root, or the name an engine open looked up already, ``actingUserAndName()``). Refuses a service with no file in the
    /// PAM configuration directory, which Linux-PAM would silently replace by "other".
    public init(service: String, configDirectory: String?, user: String? = nil) throws(TenderError) {
        self.service = service
        self.configDirectory = configDirectory
        if let user {
            self.user = user
        } else {
            self.user = try ProcessUser.name()
        }
        let directory = PAMServiceFile.directory(configured: configDirectory)
        guard PAMServiceFile.exists(service: service, in: directory) else {
            throw .authService(PAMServiceFile.missingMessage(service: service, directory: directory))
        }
    }

    /// Whether pam_wrapper (libpam_wrapper.so) is preloaded or mapped in this process: it then
    /// chooses the PAM stack from its own environment, so an engine seeing it must run in
    /// testing mode (audited as such and reported by `tender verify`), as with `"testing": true`.
    public static var pamWrapperPresent: Bool { PAMServiceFile.wrapperPresent }

    /// The name of the user the process runs as.
    public static func processUser() throws(TenderError) -> String { try ProcessUser.name() }

    /// The user Tender acts for, as the audit names it (its name, else "uid N"); throws
    /// ``TenderError/authService(_:)`` when the real and effective uids differ.
    public static func actingUser() throws(TenderError) -> String { try ProcessUser.label() }

    /// ``actingUser()`` and the user's name (nil when the uid has no passwd entry) from one passwd lookup, for an
    /// engine open that needs both: the audit's label, and the name ``init(service:configDirectory:user:)`` takes
    /// (which would look it up again). Throws ``TenderError/authService(_:)`` when the real and effective uids differ.
    public static func actingUserAndName() throws(TenderError) -> (label: String, name: String?) {
        let uid = try ProcessUser.uid()
        let name = try? ProcessUser.name()
        return (name ?? "uid \(uid)", name)
    }

    public func authenticate(through conversation: any Conversation) -> AuthenticationDenial? {
        // The uids may have changed since the engine opened: authenticate only while they agree.
        do throws(TenderError) { _ = try ProcessUser.uid() } catch { return .systemError(error.message) }
        let context = ConversationContext(conversation)
        let appdata = Unmanaged.passRetained(context)
        defer { appdata.release() }
        var conv = pam_conv(conv: pamConversation, appdata_ptr: appdata.toOpaque())
        var handle: OpaquePointer?
        let started = configDirectory.map { pam_start_confdir(service, user, &conv, $0, &handle) } ?? pam_start(service, user, &conv, &handle)
        guard started == PAM_SUCCESS, let handle else { return .systemError("PAM could not start the service \(service)") }
        let flags = Int32(PAM_SILENT) | Int32(PAM_DISALLOW_NULL_AUTHTOK)
        var result = pam_authenticate(handle, flags)
        if result == PAM_SUCCESS { result = pam_acct_mgmt(handle, flags) }
        if result == PAM_SUCCESS, currentUser(handle) != user { result = PAM_PERM_DENIED }
        let message = String(cString: pam_strerror(handle, result))
        pam_end(handle, result)
        return PAMResult.denial(result, message: message, cancelled: context.cancelled)
    }

    private func currentUser(_ handle: OpaquePointer) -> String? {
        var item: UnsafeRawPointer?
        guard pam_get_item(handle, PAM_USER, &item) == PAM_SUCCESS, let item else { return nil }
        return String(cString: item.assumingMemoryBound(to: CChar.self))
    }
}

/// The state one PAM conversation shares with its C callback.
final class ConversationContext {
    let conversation: any Conversation
    var cancelled = false

    init(_ conversation: any Conversation) { self.conversation = conversation }
}

/// The C conversation function PAM calls: each answer goes into a buffer
/// allocated with malloc, as PAM frees it; on cancel everything is wiped and freed.
private let pamConversation: @convention(c) (
    Int32, UnsafeMutablePointer<UnsafePointer<pam_message>?>?, UnsafeMutablePointer<UnsafeMutablePointer<pam_response>?>?,
    UnsafeMutableRawPointer?
) -> Int32 = { count, messages, responses, appdata in
    guard count > 0, count <= PAM_MAX_NUM_MSG, let messages, let responses, let appdata else { return PAM_CONV_ERR }
    let context = Unmanaged<ConversationContext>.fromOpaque(appdata).takeUnretainedValue()
    guard let replies = calloc(Int(count), MemoryLayout<pam_response>.stride)?.bindMemory(to: pam_response.self, capacity: Int(count)) else {
        return PAM_BUF_ERR
    }
    func discard() {
        for index in 0..<Int(count) {
            if let answer = replies[index].resp {
                explicit_bzero(answer, Int(PAM_MAX_RESP_SIZE))
                free(answer)
            }
        }
        free(replies)
    }
    for index in 0..<Int(count) {
        guard let message = messages[index]?.pointee else {
            discard()
            return PAM_CONV_ERR
        }
        let text = message.msg.map { String(cString: $0) } ?? ""
        let kind: PromptKind
        switch message.msg_style {
        case PAM_PROMPT_ECHO_OFF: kind = .secret
        case PAM_PROMPT_ECHO_ON: kind = .text
        case PAM_ERROR_MSG: kind = .error
        case PAM_TEXT_INFO: kind = .info
        default:
            // Binary or radio prompts: nothing a host can answer.
            discard()
            return PAM_CONV_ERR
        }
        if kind == .info || kind == .error {
            guard context.conversation.converse(kind: kind, message: text, answer: UnsafeMutableRawBufferPointer(start: nil, count: 0)) != nil
            else {
                context.cancelled = true
                discard()
                return PAM_CONV_ERR
            }
            continue
        }
        guard let buffer = calloc(Int(PAM_MAX_RESP_SIZE), 1) else {
            discard()
            return PAM_BUF_ERR
        }
        replies[index].resp = buffer.assumingMemoryBound(to: CChar.self)
        let space = UnsafeMutableRawBufferPointer(start: buffer, count: Int(PAM_MAX_RESP_SIZE) - 1)
        guard let written = context.conversation.converse(kind: kind, message: text, answer: space), written >= 0,
            written < Int(PAM_MAX_RESP_SIZE)
        else {
            context.cancelled = true
            discard()
            return PAM_CONV_ERR
        }
        buffer.storeBytes(of: 0, toByteOffset: written, as: UInt8.self)
    }
    responses.pointee = replies
    return PAM_SUCCESS
}
