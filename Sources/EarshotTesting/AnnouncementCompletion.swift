import EarshotCore

/// The outcome of one `announcementDidFinishNotification`.
public struct AnnouncementCompletion: Hashable, Sendable {
    /// The announcement's text.
    public var text: String
    /// `wasSuccessful`: true when it was spoken to the end.
    public var wasSuccessful: Bool
    /// When the notification was posted.
    public var at: Duration
}
