import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The operating system's reason for a failed file operation, as messages give it: "No space left on device",
/// not a Foundation error's dump ("Error Domain=NSCocoaErrorDomain Code=640 …").
public enum SystemReason {
    /// The system's reason inside `error` (a `POSIXError`, or a Foundation file error over one); else a Foundation
    /// error's own sentence ("The file doesn’t exist."), or the error as it describes itself.
    public static func of(_ error: any Error) -> String {
        if let reason = reason(in: error, depth: 0) { return reason }
        let described = error as NSError
        return described.domain == NSCocoaErrorDomain ? described.localizedDescription : "\(error)"
    }

    private static func reason(in error: any Error, depth: Int) -> String? {
        if let posix = error as? POSIXError { return text(posix.code.rawValue) }
        let described = error as NSError
        if described.domain == NSPOSIXErrorDomain { return text(Int32(described.code)) }
        guard depth < 4 else { return nil }
        let underlying = (error as? CocoaError)?.underlying ?? described.userInfo[NSUnderlyingErrorKey] as? any Error
        return underlying.flatMap { reason(in: $0, depth: depth + 1) }
    }

    /// The system's text for error number `code` (`strerror`).
    public static func text(_ code: Int32) -> String { String(cString: strerror(code)) }
}
