import EarshotCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A speech-dispatcher event (SSIP 7xx notification), stamped with the monotonic time it was read.
public struct SSIPEvent: Hashable, Sendable {
    /// What happened to the message.
    public enum Kind: String, Hashable, Sendable {
        case indexMark = "INDEX MARK", begin = "BEGIN", end = "END", cancel = "CANCELED", pause = "PAUSED"
        case resume = "RESUMED"
    }

    /// The event.
    public var kind: Kind
    /// The server's message id (what `SPEAK` replied with).
    public var messageID: Int
    /// The server's client id.
    public var clientID: Int
    /// The index mark's name, for `INDEX_MARK`.
    public var mark: String?
    /// `CLOCK_MONOTONIC` nanoseconds when the line was read.
    public var monotonic: UInt64
}

/// What can go wrong talking SSIP.
public struct SSIPError: Error, CustomStringConvertible, Sendable {
    /// What happened, with the socket path or the command.
    public var description: String

    /// Creates an error.
    public init(_ description: String) { self.description = description }
}

/// A speech-dispatcher client: SSIP, plain text lines over a Unix socket.
///
/// Commands are sent one at a time and wait for their reply; the server's event notifications (7xx lines,
/// turned on with `SET SELF NOTIFICATION ALL ON`) arrive on the same socket at any time, so one reader thread
/// splits replies from events and stamps each event with the monotonic clock as it is read. The protocol is
/// speech-dispatcher's SSIP manual: a reply is lines `NNN-data` ending with `NNN text`; `SPEAK` answers 230, then
/// the text follows, ended by a line holding one dot (a leading dot doubled), answered by `225-ID` / `225 OK`.
public final class SSIPClient: @unchecked Sendable {
    private let descriptor: Int32
    private let condition = NSCondition()
    private var replies: [[String]] = []
    private var events: [SSIPEvent] = []
    private var closed = false
    private var reader: Thread?
    /// The socket it talks to.
    public let socketPath: String

    /// Connects to the server listening on `socketPath`.
    ///
    /// - Throws: `SSIPError` naming the path when nothing accepts the connection.
    public init(socketPath: String) throws {
        self.socketPath = socketPath
        descriptor = try UnixSocket(path: socketPath).descriptor
        let thread = Thread { [self] in readLoop() }
        thread.name = "earshot.ssip"
        reader = thread
        thread.start()
    }

    deinit { disconnect() }

    /// Sends `QUIT` and closes the socket.
    public func disconnect() {
        let wasOpen = condition.withLock {
            let open = !closed
            closed = true
            return open
        }
        guard wasOpen else { return }
        _ = try? write("QUIT\r\n")
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        condition.broadcast()
    }

    /// Sends one command line and returns its reply lines (without codes' separators), checking the code is 2xx.
    ///
    /// - Throws: `SSIPError` with the command and the server's reply when it is not a success, or when the server
    ///   does not answer within `timeout`.
    @discardableResult
    public func command(_ line: String, timeout: TimeSpan = .seconds(5)) throws -> [String] {
        try write(line + "\r\n")
        let reply = try nextReply(timeout: timeout, command: line)
        guard let last = reply.last, last.hasPrefix("2") else {
            throw SSIPError("\(socketPath): '\(line)' failed: \(reply.joined(separator: " | "))")
        }
        return reply
    }

    /// Speaks `text` with `priority` from this connection; returns the server's message id. With `marked` (the
    /// connection must have `SET SELF SSML_MODE on`), an index mark named `0`, `1`, … goes before each word, so the
    /// server reports each word as it starts.
    public func speak(_ text: String, priority: SSIPPriority, marked: Bool = false) throws -> Int {
        try command("SET SELF PRIORITY \(priority.rawValue)")
        try command("SPEAK")
        let spoken = marked ? Self.markedSSML(text) : text
        let body = spoken.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n")
        try write(body + "\r\n.\r\n")
        let reply = try nextReply(timeout: .seconds(5), command: "SPEAK data")
        guard let first = reply.first, first.hasPrefix("225-"), let id = Int(first.dropFirst(4)) else {
            throw SSIPError("\(socketPath): SPEAK was not queued: \(reply.joined(separator: " | "))")
        }
        return id
    }

    /// `<speak><mark name="0"/>The <mark name="1"/>first …</speak>`, the text escaped for XML.
    public static func markedSSML(_ text: String) -> String {
        let words = text.split(whereSeparator: \.isWhitespace).map { word in
            word.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        return "<speak>" + words.enumerated().map { "<mark name=\"\($0)\"/>\($1)" }.joined(separator: " ") + "</speak>"
    }

    /// The events read so far, in the order read.
    public var receivedEvents: [SSIPEvent] { condition.withLock { events } }

    /// Waits until `isDone` holds for the events read so far, or `timeout` passes; returns whether it held.
    public func waitForEvents(timeout: TimeSpan, until isDone: ([SSIPEvent]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while !isDone(events) {
            if closed || !condition.wait(until: deadline) { return isDone(events) }
        }
        return true
    }

    // MARK: Wire

    private func write(_ text: String) throws {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return -1 }
                return send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw SSIPError("\(socketPath): connection lost while sending") }
            offset += sent
        }
    }

    private func nextReply(timeout: TimeSpan, command: String) throws -> [String] {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while replies.isEmpty {
            if closed { throw SSIPError("\(socketPath): connection closed waiting for the reply to '\(command)'") }
            if !condition.wait(until: deadline) {
                throw SSIPError("\(socketPath): no reply to '\(command)' within \(timeout)")
            }
        }
        return replies.removeFirst()
    }

    private func readLoop() {
        var pending: [UInt8] = []
        var lines: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            let stamp = RealTimeClock.monotonicNanoseconds()
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                let text = String(decoding: line, as: UTF8.self)
                lines.append(text)
                // `NNN-…` continues a reply; `NNN …` ends it.
                guard text.count >= 4, text[text.index(text.startIndex, offsetBy: 3)] == " " else { continue }
                deliver(lines, at: stamp)
                lines = []
            }
        }
        condition.withLock { closed = true }
        condition.broadcast()
    }

    private func deliver(_ lines: [String], at stamp: UInt64) {
        guard let last = lines.last else { return }
        condition.withLock {
            if last.hasPrefix("7") {
                let data = lines.dropLast().map { String($0.dropFirst(4)) }
                let name = String(last.dropFirst(4))
                if let kind = SSIPEvent.Kind(rawValue: name), data.count >= 2, let message = Int(data[0]),
                    let client = Int(data[1])
                {
                    events.append(
                        SSIPEvent(
                            kind: kind, messageID: message, clientID: client, mark: data.count > 2 ? data[2] : nil,
                            monotonic: stamp))
                }
            } else {
                replies.append(lines)
            }
        }
        condition.broadcast()
    }
}
