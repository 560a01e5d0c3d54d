/// A data-table lookup that found no entry: `{results-for query}` while `query` holds a key the table lacks.
///
/// The engine stops the run with it (`Simulation.advance` throws it): an empty string in its place would
/// be spoken as if the app meant it.
public struct TemplateMiss: Error, Hashable, Sendable, CustomStringConvertible {
    /// The table looked up.
    public var table: String
    /// The element whose value is the key.
    public var keyElement: String
    /// The key that was missing.
    public var key: String
    /// Where the template was written (`path:line:column`), when known.
    public var origin: String?
    /// When the lookup ran.
    public var time: Instant?

    /// Creates a miss.
    public init(table: String, keyElement: String, key: String, origin: String?, time: Instant? = nil) {
        self.table = table
        self.keyElement = keyElement
        self.key = key
        self.origin = origin
        self.time = time
    }

    /// The miss, stamped with when it happened.
    public func at(_ instant: Instant) -> TemplateMiss {
        var stamped = self
        stamped.time = instant
        return stamped
    }

    /// `path:line:col: data table 'results-for' has no entry for "jx" (the value of query) at 2.310s`.
    public var description: String {
        (origin.map { "\($0): " } ?? "") + "data table '\(table)' has no entry for \"\(key)\" (the value of "
            + "\(keyElement))" + (time.map { " at \($0)" } ?? "")
            + "; add \(key.isEmpty ? "\"\"" : key.contains(" ") ? "\"\(key)\"" : key)=… to the table"
    }
}
