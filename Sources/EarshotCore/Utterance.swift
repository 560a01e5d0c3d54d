/// What kind of speech an utterance is (docs/speech-model.md, "What the engine models").
public enum UtteranceKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// An element read because focus landed on it.
    case focusRead
    /// An element's hint, after the hint delay.
    case hint
    /// An app announcement (`UIAccessibility.post(.announcement)`).
    case announcement
    /// The element read after `screenChanged`.
    case screenChange
    /// The element read, or the string spoken, after `layoutChanged`.
    case layoutChange
    /// `pageScrolled` text.
    case pageScrolled
    /// A re-read of a focused `updatesFrequently` element.
    case poll
    /// The echo of a typed character or word.
    case typingEcho
    /// A value spoken after the user adjusts a control.
    case valueEcho
    /// The item Switch Control's scan highlights, spoken.
    case scan
}

/// Announcement priority (`UIAccessibilityPriority`; `AccessibilityNotification.Announcement` attributes).
public enum Priority: String, Hashable, Sendable, Codable, CaseIterable {
    case low, `default`, high
}

/// A stable number naming one utterance in a run.
public typealias UtteranceID = Int

/// Why an utterance never started.
public enum DropReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// A focus move cleared the queue (VoiceOver sends no finish callback for these).
    case focusMoved = "focus moved"
    /// A screen change cleared the queue.
    case screenChanged = "screen changed"
    /// A poll tick found the channel speaking; polls never queue.
    case channelBusy = "channel busy"
    /// `focusReadPreemptsAnnouncements`: the announcement arrived during a focus read.
    case focusReadPreempted = "focus read preempted it"
    /// The scenario ended before it could start.
    case scenarioEnded = "scenario ended"
    /// Speech was turned off for the profile (sound off).
    case speechOff = "speech off"
    /// A newer utterance of the same class replaced it (TalkBack's same-group content changes; speech-dispatcher's
    /// `text`, `notification` and `progress`, which keep only the newest).
    case superseded = "superseded by a newer one"
    /// Something of a higher class arrived and the reader's rules cancel this class (speech-dispatcher).
    case cancelledByPriority = "cancelled by a higher priority"
    /// The same text was speaking, waiting, or heard a moment ago (TalkBack's duplicate window).
    case duplicate = "duplicate of recent speech"
    /// A key press cancelled all speech (NVDA), or an interrupting item cleared it (TalkBack).
    case speechCancelled = "speech cancelled"
    /// The client sent SSIP `CANCEL`.
    case clientCancelled = "client cancelled"
}

/// A request to speak, as the profile sees it.
public struct Utterance: Hashable, Sendable {
    /// The utterance's number in this run.
    public var id: UtteranceID
    /// The text spoken.
    public var text: String
    /// Its kind.
    public var kind: UtteranceKind
    /// Its priority (announcements; everything else is `.default`).
    public var priority: Priority
    /// True for announcements posted with the queue attribute (`accessibilitySpeechQueueAnnouncement`).
    public var queued: Bool
    /// The element it reads, when it reads one.
    public var elementID: String?
    /// What caused it, in words ("type \"j\" into query", "announce at 2s").
    public var cause: String
    /// When it was asked for.
    public var requestedAt: Instant

    /// Creates an utterance.
    public init(
        id: UtteranceID, text: String, kind: UtteranceKind, priority: Priority = .default, queued: Bool = false,
        elementID: String? = nil, cause: String, requestedAt: Instant
    ) {
        self.id = id
        self.text = text
        self.kind = kind
        self.priority = priority
        self.queued = queued
        self.elementID = elementID
        self.cause = cause
        self.requestedAt = requestedAt
    }

    /// True for app announcements, the only utterances that get `announcementDidFinish`.
    public var isAppAnnouncement: Bool { kind == .announcement }

    /// True for everything the app makes VoiceOver say without a focus move: announcements and the strings of
    /// `layoutChanged` and `pageScrolled` (V8, "as V1"). Checks and findings about announcing count these.
    public var isAppSpeech: Bool {
        kind == .announcement || kind == .pageScrolled || (kind == .layoutChange && elementID == nil)
    }

    /// True when nothing may cut it once it started: a `.high` announcement (V3).
    public var isUninterruptible: Bool { kind == .announcement && priority == .high }

    /// `announcement "Results updated"`, the way transcripts name an utterance.
    public var shortName: String { "\(kind.rawValue) \"\(text)\"" }
}

/// What became of an utterance.
public enum Outcome: Hashable, Sendable {
    /// Waiting in the queue, or not yet resolved.
    case pending
    /// Speaking now (only seen mid-run).
    case speaking(start: Instant)
    /// Spoken to the end.
    case spoken(start: Instant, end: Instant)
    /// Cut while speaking.
    case interrupted(start: Instant, cut: Instant, by: Interruption)
    /// Never started.
    case dropped(at: Instant, reason: DropReason, by: UtteranceID?)
}

/// Who cut an utterance.
public struct Interruption: Hashable, Sendable {
    /// The utterance that cut it, when speech did.
    public var utterance: UtteranceID?
    /// A description of the cause ("announcement \"Results updated\"", "swipe next", "scenario ended").
    public var description: String

    /// Creates an interruption record.
    public init(utterance: UtteranceID?, description: String) {
        self.utterance = utterance
        self.description = description
    }
}
