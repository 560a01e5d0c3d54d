/// A key the interactive listener understands.
public enum TerminalKey: Hashable, Sendable {
    /// → (swipe next).
    case right
    /// ← (swipe previous).
    case left
    /// ↑, ↓ and other keys that have no meaning here.
    case ignored
    /// Enter (activate).
    case enter
    /// Tab (before ↔ after).
    case tab
    /// Esc alone (quit).
    case escape
    /// Ctrl-C (quit; in raw mode it arrives as a byte, not a signal).
    case interrupt
    /// Backspace.
    case backspace
    /// A printable character (typed into the focused field).
    case character(Character)
}

/// Turns the bytes a raw-mode terminal sends into keys.
///
/// Escape sequences (`ESC [ C`, `ESC O D`, …) arrive in one read on every terminal emulator in practice, but may
/// be split; bytes are kept until a sequence is complete. A lone ESC is ambiguous until the terminal has been
/// quiet for a moment: the reader calls ``flush()`` after a short timeout with nothing more to read.
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    /// Creates a decoder with nothing pending.
    public init() {}

    /// True when an incomplete escape sequence (or a lone ESC) waits for more bytes.
    public var hasPending: Bool { !pending.isEmpty }

    /// Decodes `bytes`, returning the keys they complete.
    public mutating func feed(_ bytes: [UInt8]) -> [TerminalKey] {
        pending += bytes
        var keys: [TerminalKey] = []
        while let (key, used) = Self.decodeFirst(pending) {
            keys.append(key)
            pending.removeFirst(used)
        }
        return keys
    }

    /// After a quiet moment: a pending lone ESC is the Esc key; any other partial sequence is dropped.
    public mutating func flush() -> [TerminalKey] {
        defer { pending.removeAll() }
        return pending == [0x1B] ? [.escape] : []
    }

    /// The first key in `bytes` and how many bytes it used; nil when more bytes are needed.
    static func decodeFirst(_ bytes: [UInt8]) -> (TerminalKey, Int)? {
        guard let first = bytes.first else { return nil }
        switch first {
        case 0x1B:
            guard bytes.count >= 2 else { return nil }
            guard bytes[1] == UInt8(ascii: "[") || bytes[1] == UInt8(ascii: "O") else {
                return (.escape, 1)  // ESC then an unrelated key: Esc, and the key is decoded next
            }
            // CSI/SS3: parameters (digits, ';') then one final byte in 0x40...0x7E.
            var index = 2
            while index < bytes.count {
                let byte = bytes[index]
                if (0x40...0x7E).contains(byte) {
                    switch byte {
                    case UInt8(ascii: "C"): return (.right, index + 1)
                    case UInt8(ascii: "D"): return (.left, index + 1)
                    default: return (.ignored, index + 1)
                    }
                }
                index += 1
            }
            return nil
        case 0x03: return (.interrupt, 1)
        case 0x09: return (.tab, 1)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x20...0x7E: return (.character(Character(Unicode.Scalar(first))), 1)
        case 0xC0...0xF7:
            // One UTF-8 character: 2–4 bytes.
            let length = first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : 2
            guard bytes.count >= length else { return nil }
            let text = String(decoding: bytes[0..<length], as: UTF8.self)
            guard let character = text.first, text.count == 1, character != "\u{FFFD}" else {
                return (.ignored, length)
            }
            return (.character(character), length)
        default:
            return (.ignored, 1)
        }
    }
}
