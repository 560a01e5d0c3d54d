/// Turns the bytes of a script or voice file into text, or says where the first byte that is not UTF-8 is.
///
/// A UTF-8 byte order mark at the start is dropped. Line and column count like the parsers do: lines end
/// at `\n`, `\r\n` or a lone `\r`; columns are characters from 1.
public enum SourceText {
    /// Where a file stops being UTF-8.
    public struct InvalidByte: Error, Hashable, Sendable {
        /// 1-based line of the first bad byte.
        public var line: Int
        /// 1-based column (in characters) of the first bad byte.
        public var column: Int
        /// The bad byte's value.
        public var byte: UInt8
        /// The line's text up to the bad byte, for the caret display.
        public var sourceLine: String

        /// `not valid UTF-8 (byte 0xFF)`.
        public var message: String {
            let hex = String(byte, radix: 16, uppercase: true)
            return "not valid UTF-8 (byte 0x\(hex.count < 2 ? "0" + hex : hex))"
        }

        /// The hint printed with the error.
        public static let hint = "save the file as UTF-8"
    }

    /// The text of `bytes`, without a leading byte order mark.
    ///
    /// - Throws: `InvalidByte` with the place of the first byte that is not part of valid UTF-8.
    public static func decode(_ bytes: [UInt8]) throws(InvalidByte) -> String {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let body = bytes[start...]
        if let text = String(validating: body, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = body.makeIterator()
        var offset = start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded): offset += encoded.count
            case .error: throw invalidByte(bytes, start: start, at: offset)
            case .emptyInput: return String(decoding: body, as: UTF8.self)
            }
        }
    }

    private static func invalidByte(_ bytes: [UInt8], start: Int, at offset: Int) -> InvalidByte {
        var line = 1
        var lineStart = start
        var index = start
        while index < offset {
            let byte = bytes[index]
            if byte == 0x0A || (byte == 0x0D && (index + 1 >= bytes.count || bytes[index + 1] != 0x0A)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
        return InvalidByte(line: line, column: before.count + 1, byte: bytes[offset], sourceLine: before)
    }
}
