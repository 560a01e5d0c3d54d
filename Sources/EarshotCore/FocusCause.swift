/// Why VoiceOver focus moved: the user's gesture, a notification, or the focused element going away.
///
/// Checks ask typed questions of it (did the user move focus? was it a swipe?); transcripts and JSON Lines
/// print its `description` ("swipe next", "touch cart", "screenChanged").
public enum FocusCause: Hashable, Sendable, CustomStringConvertible {
    /// A user action (a swipe, a touch).
    case user(UserAction)
    /// `screenChanged` (or `show screen`).
    case screenChanged
    /// `layoutChanged` with the element.
    case layoutChanged(String)
    /// The focused element disappeared and VoiceOver settled elsewhere (or nowhere).
    case focusedElementDisappeared

    /// True when the user moved focus.
    public var isUser: Bool {
        if case .user = self { return true }
        return false
    }

    /// True for a swipe left or right.
    public var isSwipe: Bool { self == .user(.swipeNext) || self == .user(.swipePrevious) }

    /// "swipe next", "touch cart", "screenChanged", "layoutChanged(undo)", "focused element disappeared".
    public var description: String {
        switch self {
        case .user(let action):
            switch action {
            case .swipeNext: return "swipe next"
            case .swipePrevious: return "swipe previous"
            case .focus(let id): return "touch \(id)"
            case .activate(let id): return "activate" + (id.map { " \($0)" } ?? "")
            case .type(let character): return "type \"\(character)\""
            case .submit: return "submit"
            case .adjust(let direction): return "swipe \(direction.rawValue)"
            }
        case .screenChanged: return "screenChanged"
        case .layoutChanged(let id): return "layoutChanged(\(id))"
        case .focusedElementDisappeared: return "focused element disappeared"
        }
    }
}
