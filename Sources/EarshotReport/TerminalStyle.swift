/// Colour for terminal output: green passes, red failures, dim evidence, or plain text.
///
/// Colour is on only when standard output is a terminal and `NO_COLOR` is unset or empty (the no-color.org
/// convention); `CLICOLOR_FORCE` set to anything but `0` turns it on even for a pipe, for pagers like `less -R`.
public struct TerminalStyle: Sendable, Equatable {
    /// True when text gets ANSI colour codes.
    public var colored: Bool

    /// Plain text: what files, pipes and tests get.
    public static let plain = TerminalStyle(colored: false)

    /// Creates a style.
    public init(colored: Bool) { self.colored = colored }

    /// The style for an output that is or is not a terminal, given the environment.
    public init(isTerminal: Bool, environment: [String: String]) {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty {
            colored = false
        } else if let force = environment["CLICOLOR_FORCE"], !force.isEmpty, force != "0" {
            colored = true
        } else {
            colored = isTerminal && environment["TERM"] != "dumb"
        }
    }

    /// A passing mark or verdict, in green.
    public func pass(_ text: String) -> String { paint(text, code: "32") }

    /// A failing mark or verdict, in red.
    public func fail(_ text: String) -> String { paint(text, code: "31") }

    /// A line added in a diff (green) or removed (red).
    public func diffLine(_ line: String) -> String {
        if line.hasPrefix("+") && !line.hasPrefix("+++") { return pass(line) }
        if line.hasPrefix("-") && !line.hasPrefix("---") { return fail(line) }
        if line.hasPrefix("@@") { return paint(line, code: "36") }
        return line
    }

    /// Less important text (evidence, locations), dimmed.
    public func dim(_ text: String) -> String { paint(text, code: "2") }

    private func paint(_ text: String, code: String) -> String {
        colored ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
