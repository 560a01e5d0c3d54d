/// Every tunable value of the NVDA profile; each names where its default comes from.
public struct NVDASettings: Hashable, Sendable {
    /// "Speech interrupt for typed characters" (NVDA's keyboard settings, default on): a key press cancels all
    /// speech (`KeyboardInputGesture` speech effect CANCEL) before its echo.
    public var interruptForTypedCharacters: Bool = true

    /// The defaults above.
    public init() {}
}

/// NVDA's speech rules as data, and the one function that applies them.
///
/// NVDA's speech manager (nvaccess/nvda `source/speech/manager.py`, priorities in `speech/priorities.py`) keeps one
/// queue per priority, NORMAL < NEXT < NOW, and always speaks from the highest queue with speech waiting. NEXT waits
/// for the utterance speaking to end and then goes before queued NORMAL speech. A key press cancels all speech
/// (`speech.cancelSpeech`), and a focus change drops focus speech that became stale (`eventHandler.doPreGainFocus`
/// removes cancelled speech commands) while app messages survive it.
///
/// NOW is not reached from the script vocabulary (no app event maps to it), so its resume-after-interrupt rule is
/// not modelled.
public enum NVDAPolicy {
    /// NVDA's speech priorities.
    public enum SpeechPriority: String, Hashable, Sendable {
        /// `SpeechPriority.NORMAL`.
        case normal = "NORMAL"
        /// `SpeechPriority.NEXT`: after the utterance speaking, before queued NORMAL speech.
        case next = "NEXT"

        /// Queue rank: NEXT goes first.
        var rank: Int { self == .next ? 1 : 0 }
    }

    /// What happens to speech already there when the request arrives.
    public enum Cancel: String, Hashable, Sendable {
        /// Nothing: the newcomer queues by its priority.
        case none
        /// A key press: all speech stops, queued and speaking (`speech.cancelSpeech`).
        case all
        /// A focus change: focus speech speaking or queued is dropped as stale; messages stay.
        case staleFocus
    }

    /// One row: the NVDA event a request becomes, what it cancels, and its priority.
    public struct Rule: Hashable, Sendable {
        /// The rule's name (`NV1` …).
        public var name: String
        /// The NVDA event or function.
        public var event: String
        /// What it cancels first.
        public var cancels: Cancel
        /// Its priority.
        public var priority: SpeechPriority
        /// The class it is filed in: `focus` for focus speech (droppable when stale), `message` otherwise.
        public var lane: String
        /// True when a busy channel skips it (the engine's poller and hint never wait behind other speech).
        public var skipsWhenBusy: Bool
    }

    /// The class of focus speech, which a later focus change makes stale.
    public static let focusLane = "focus"
    /// The class of everything else.
    public static let messageLane = "message"

    /// The rule table.
    public static let rules: [SpeechRequest: Rule] = {
        func row(
            _ name: String, _ event: String, _ cancels: Cancel, _ priority: SpeechPriority = .normal,
            lane: String = messageLane, skipsWhenBusy: Bool = false
        ) -> Rule {
            Rule(
                name: name, event: event, cancels: cancels, priority: priority, lane: lane,
                skipsWhenBusy: skipsWhenBusy)
        }
        return [
            // NV1: app messages are `ui.message`, NORMAL priority: queued, never cutting (`source/ui.py`).
            .announcementDefault: row("NV1", "ui.message", .none),
            .announcementQueued: row("NV1", "ui.message (polite live region)", .none),
            .layoutChangeString: row("NV1", "ui.message", .none),
            .pageScrolled: row("NV1", "ui.message", .none),
            // NV2: an assertive live region is NEXT, not NOW (`NVDAObjects.event_liveRegionChange`, PR 11596).
            .announcementHigh: row("NV2", "live region assertive", .none, .next),
            // NV3: the user's navigation is a key press, which cancels all speech before the focus is spoken.
            .focusMove: row("NV3", "key press + gainFocus", .all, lane: focusLane),
            // NV4: a focus event the user did not cause drops stale focus speech only (`doPreGainFocus`).
            .screenChange: row("NV4", "foreground + gainFocus", .staleFocus, lane: focusLane),
            .layoutChangeElement: row("NV4", "gainFocus", .staleFocus, lane: focusLane),
            // NV5: typed characters and activations are key presses: cancel, then speak.
            .typingEcho: row("NV5", "typed character", .all),
            .valueEcho: row("NV5", "key press + state change", .all),
            // NV6: a value change of the focus object is NORMAL speech; the poller skips a busy channel.
            .poll: row("NV6", "valueChange (focus)", .none, skipsWhenBusy: true),
            // NV7: the description is NORMAL speech after the focus; the hint timer skips a busy channel.
            .hint: row("NV7", "description", .none, skipsWhenBusy: true),
        ]
    }()

    /// Decides what happens to `request` given what the channel holds.
    public static func decide(_ request: SpeechRequest, channel: ChannelView, settings: NVDASettings) -> ReaderDecision
    {
        guard let rule = rules[request] else { preconditionFailure("every SpeechRequest has an NVDA rule") }
        var cancels = rule.cancels
        if request == .typingEcho, !settings.interruptForTypedCharacters { cancels = .none }
        if rule.skipsWhenBusy, channel.current != nil {
            return ReaderDecision(rule: rule.name, reaction: .drop(.channelBusy), lane: rule.lane)
        }
        switch cancels {
        case .all:
            return ReaderDecision(
                rule: rule.name, reaction: .interrupt, drop: .all(.speechCancelled), lane: rule.lane,
                rank: rule.priority.rank)
        case .staleFocus:
            let cutsStale = channel.current?.lane == focusLane
            return ReaderDecision(
                rule: rule.name, reaction: cutsStale ? .cutThenQueue : .enqueue,
                drop: QueueDrop(lanes: [focusLane], reason: .focusMoved), lane: rule.lane, rank: rule.priority.rank)
        case .none:
            return ReaderDecision(
                rule: rule.name, reaction: rule.priority == .next ? .afterCurrent : .enqueue, lane: rule.lane,
                rank: rule.priority.rank)
        }
    }
}
