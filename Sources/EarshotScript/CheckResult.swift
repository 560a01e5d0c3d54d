import EarshotCore

/// The verdict on one assertion line, with the evidence behind it.
public struct AssertionResult: Sendable {
    /// The line as written.
    public var text: String
    /// Where it is.
    public var location: SourceLocation
    /// True when it held.
    public var passed: Bool
    /// What was seen: times, phrases heard, what cut what.
    public var evidence: [String]
}

/// The verdict on one `check` block: it passes when every assertion does.
public struct CheckResult: Sendable {
    /// The check's name (the card's Expected wording).
    public var name: String
    /// Where it is.
    public var location: SourceLocation
    /// Each assertion's verdict.
    public var assertions: [AssertionResult]

    /// True when every assertion held.
    public var passed: Bool { assertions.allSatisfy(\.passed) }
}
