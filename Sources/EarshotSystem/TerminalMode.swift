import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Raw keyboard input on a terminal, always given back.
///
/// ``enterRaw(descriptor:)`` turns off line buffering, echo and signal keys (Ctrl-C arrives as a byte, so the
/// listener can silence speech before it quits) but keeps output processing, so `\n` still returns the carriage.
/// ``restore()`` puts the saved settings back; it is idempotent and is called by `deinit` too, so every way out
/// of interactive mode — Esc, Ctrl-C, SIGINT/SIGTERM from outside, an error — leaves the terminal as it was.
public final class TerminalMode: @unchecked Sendable {
    /// The terminal's descriptor.
    public let descriptor: Int32
    private let saved: termios
    private let lock = NSLock()
    private var isRaw = true

    private init(descriptor: Int32, saved: termios) {
        self.descriptor = descriptor
        self.saved = saved
    }

    /// Switches the terminal on `descriptor` to raw input; nil when it is not a terminal.
    public static func enterRaw(descriptor: Int32 = STDIN_FILENO) -> TerminalMode? {
        guard isatty(descriptor) == 1 else { return nil }
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return nil }
        let saved = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        settings.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else { return nil }
        return TerminalMode(descriptor: descriptor, saved: saved)
    }

    /// Gives the terminal its saved settings back (once; later calls do nothing).
    public func restore() {
        lock.withLock {
            guard isRaw else { return }
            isRaw = false
            var settings = saved
            _ = tcsetattr(descriptor, TCSANOW, &settings)
        }
    }

    deinit { restore() }

    /// Waits up to `timeoutMilliseconds` for input on `descriptor` and reads what is there; nil at end of input
    /// or on an error, empty when nothing came.
    public static func read(descriptor: Int32, timeoutMilliseconds: Int32) -> [UInt8]? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        if ready < 0 { return errno == EINTR ? [] : nil }
        if ready == 0 { return [] }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if count == 0 { return nil }
        return Array(buffer[0..<count])
    }
}
