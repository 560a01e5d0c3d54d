/// Where something is in a scenario script: file path, 1-based line and 1-based column (in characters).
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The script's path as given to the parser.
    public var path: String
    /// The line, starting at 1.
    public var line: Int
    /// The column, starting at 1, counted in characters after a leading byte order mark is removed.
    public var column: Int

    /// Creates a location.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form compilers print.
    public var description: String { "\(path):\(line):\(column)" }
}
