/// A benchmark that could not measure: a child that would not start or failed, or a phrase file that is not one.
public struct BenchError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, naming the file or the command.
    public var description: String

    /// Creates an error with its message.
    public init(_ description: String) {
        self.description = description
    }
}
