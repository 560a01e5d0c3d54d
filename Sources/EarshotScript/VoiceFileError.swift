/// A problem in a `.voice` file, with where it is: `path:line:col: error: message`.
///
/// Self-contained on purpose (voice files are not scenario scripts); prints like a compiler error with
/// the source line and a caret under the column.
public struct VoiceFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file's path as given to the parser.
    public var path: String
    /// 1-based line (0 when the whole file is at fault, for example unreadable).
    public var line: Int
    /// 1-based column in characters (0 with `line` 0).
    public var column: Int
    /// What is wrong and what is allowed.
    public var message: String
    /// The offending line's text, for the caret display (empty when there is none).
    public var sourceLine: String

    /// Creates an error.
    public init(path: String, line: Int, column: Int, message: String, sourceLine: String = "") {
        self.path = path
        self.line = line
        self.column = column
        self.message = message
        self.sourceLine = sourceLine
    }

    /// `path:line:col: error: message`, then the source line and a caret when there is one.
    public var description: String {
        let location = line > 0 ? "\(path):\(line):\(column)" : path
        var text = "\(location): error: \(message)"
        if line > 0 && !sourceLine.isEmpty {
            text += "\n" + sourceLine + "\n" + String(repeating: " ", count: max(0, column - 1)) + "^"
        }
        return text
    }
}
