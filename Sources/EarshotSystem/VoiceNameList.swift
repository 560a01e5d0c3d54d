import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// espeak-ng's voice list, as the lower-cased names it answers to, read from a child process that lists the voices
/// while the engine gets ready (`earshot_espeak_voice_names_in_child`). The first question waits for the child;
/// when it cannot answer (no child, a short read, a non-zero exit) the list is made in this process instead.
final class VoiceNameList: @unchecked Sendable {
    private let lock = NSLock()
    private var known: Set<String>?
    private var reading: (descriptor: Int32, child: Int32)?
    private let listInProcess: () -> Set<String>

    /// A list arriving on `reading`'s pipe from its child, or made by `listInProcess` when that fails.
    init(reading: (descriptor: Int32, child: Int32)?, listInProcess: @escaping () -> Set<String>) {
        self.reading = reading
        self.listInProcess = listInProcess
    }

    /// Every name of the list; the first call waits for the child.
    func names() -> Set<String> {
        lock.lock()
        defer { lock.unlock() }
        if let known { return known }
        let received = reading.flatMap { Self.receive(from: $0.descriptor, child: $0.child) }
        reading = nil
        let names = received.map(Self.names(in:)) ?? listInProcess()
        known = names
        return names
    }

    /// The names in `text`: one per line, lower-cased.
    static func names(in text: [UInt8]) -> Set<String> {
        Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map { $0.lowercased() })
    }

    /// Everything the child writes before it exits, or nil when it did not exit 0. Closes the pipe and reaps the
    /// child either way.
    static func receive(from descriptor: Int32, child: Int32) -> [UInt8]? {
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        var failed = false
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                text += chunk[0..<count]
            } else if count == 0 {
                break
            } else if errno != EINTR {
                failed = true
                break
            }
        }
        close(descriptor)
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return failed || status != 0 ? nil : text
    }
}
