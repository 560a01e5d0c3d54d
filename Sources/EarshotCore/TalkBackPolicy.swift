/// Every tunable value of the TalkBack profile; each names where its default comes from.
public struct TalkBackSettings: Hashable, Sendable {
    /// An announcement this long or shorter is queued as uninterruptible by new speech. 30 characters:
    /// TalkBack's `VERBOSE_UTTERANCE_THRESHOLD_CHARACTERS` (compositor `QUEUE_MODE_INTERRUPTIBLE_IF_LONG`).
    public var shortAnnouncementLimit: Int = 30
    /// The same text spoken, waiting, or heard this recently is skipped. 1000 ms: `SKIP_DUPLICATES_DELAY` in
    /// TalkBack's `SpeechControllerImpl`.
    public var duplicateWindow: TimeSpan = .milliseconds(1000)
    /// Whether a typed character cuts what is speaking (TalkBack's input-text rules queue a single character with
    /// `QUEUE_MODE_INTERRUPT`). On.
    public var typingInterrupts: Bool = true

    /// The defaults above.
    public init() {}
}

/// TalkBack's speech rules as data, and the one function that applies them.
///
/// TalkBack files every utterance with a queue mode (google/talkback `SpeechController`: QUEUE, INTERRUPT,
/// UNINTERRUPTIBLE_BY_NEW_SPEECH, FLUSH_ALL) and an utterance group. Its enqueue algorithm
/// (`SpeechControllerImpl.speak`): a duplicate is skipped; an INTERRUPT or FLUSH_ALL item removes every
/// *interruptible* item, queued or speaking, and an uninterruptible item that speaks keeps speaking with the newcomer
/// queued behind it; a content change removes the queued (not the speaking) items of its group; everything else is
/// appended and starts when the channel is free.
public enum TalkBackPolicy {
    /// TalkBack's queue modes, the classes its rule table files utterances in.
    public enum Mode: String, Hashable, Sendable {
        /// `QUEUE_MODE_QUEUE`: appended; removable by an interrupting item.
        case queue = "QUEUE"
        /// `QUEUE_MODE_INTERRUPT`: removes interruptible items, cuts an interruptible current one.
        case interrupt = "INTERRUPT"
        /// `QUEUE_MODE_UNINTERRUPTIBLE_BY_NEW_SPEECH`: appended; no new speech cuts or removes it.
        case uninterruptible = "UNINTERRUPTIBLE"
        /// `QUEUE_MODE_FLUSH_ALL` (FLUSH_ALL | INTERRUPT): as INTERRUPT, used for accessibility focus.
        case flushAll = "FLUSH_ALL"
    }

    /// One row: the TalkBack event a request becomes, its queue mode and group, and whether duplicates are skipped.
    public struct Rule: Hashable, Sendable {
        /// The rule's name (`TB1` …).
        public var name: String
        /// The TalkBack event or API the request becomes.
        public var event: String
        /// Its queue mode; `nil` for `QUEUE_MODE_INTERRUPTIBLE_IF_LONG`, resolved by the text's length.
        public var mode: Mode?
        /// The utterance group; a content change replaces queued items of its group.
        public var group: String
        /// True when a newcomer removes the still-queued items of its own group (`CONTENT_CHANGE`).
        public var replacesQueuedOfGroup: Bool
        /// True for `FLAG_SKIP_DUPLICATE`.
        public var skipsDuplicates: Bool
        /// True when a busy channel skips it (the engine's poller and hint never wait behind other speech).
        public var skipsWhenBusy: Bool
    }

    /// The rule table.
    public static let rules: [SpeechRequest: Rule] = {
        func row(
            _ name: String, _ event: String, _ mode: Mode?, group: String = "DEFAULT", replaces: Bool = false,
            duplicates: Bool = false, skipsWhenBusy: Bool = false
        ) -> Rule {
            Rule(
                name: name, event: event, mode: mode, group: group, replacesQueuedOfGroup: replaces,
                skipsDuplicates: duplicates, skipsWhenBusy: skipsWhenBusy)
        }
        return [
            // TB1: `announceForAccessibility` is TYPE_ANNOUNCEMENT, filed INTERRUPTIBLE_IF_LONG with skip-duplicate
            // (talkback compositor `EventTypeAnnouncementFeedbackRule`). layoutChanged/pageScrolled strings have
            // no Android twin; an app would announce them.
            .announcementDefault: row("TB1", "announceForAccessibility", nil, duplicates: true),
            .layoutChangeString: row("TB1", "announceForAccessibility", nil, duplicates: true),
            .pageScrolled: row("TB1", "announceForAccessibility", nil, duplicates: true),
            // TB2: a polite live region is a window content change queued in group CONTENT_CHANGE, which clears
            // older queued items of the group (`EventTypeWindowContentChangedFeedbackRule`, `Compositor`).
            .announcementQueued: row(
                "TB2", "live region polite", .queue, group: "CONTENT_CHANGE", replaces: true, duplicates: true),
            // TB3: an assertive live region interrupts (same rule file: ASSERTIVE ⇒ QUEUE_MODE_INTERRUPT).
            .announcementHigh: row("TB3", "live region assertive", .interrupt, duplicates: true),
            // TB4: accessibility focus from a swipe or a programmatic focus is FLUSH_ALL
            // (`EventTypeViewAccessibilityFocusedFeedbackRule`).
            .focusMove: row("TB4", "accessibility focus", .flushAll),
            .layoutChangeElement: row("TB4", "accessibility focus", .flushAll),
            // TB5: the initial focus of a new window is QUEUE (same rule file): it waits for current speech.
            .screenChange: row("TB5", "window initial focus", .queue),
            // TB6: a typed character is INTERRUPT in group TEXT_SELECTION (`InputTextFeedbackRules`).
            .typingEcho: row("TB6", "text added", .interrupt, group: "TEXT_SELECTION"),
            // TB7: a change of the focused node's text or state is a content change of group CONTENT_CHANGE.
            .poll: row(
                "TB7", "content change (focused node)", .queue, group: "CONTENT_CHANGE", replaces: true,
                duplicates: true),
            .valueEcho: row("TB7", "state change", .queue, group: "CONTENT_CHANGE", replaces: true),
            // TB8: the hint is queued 400 ms after the focus read (`ProcessorAccessibilityHints.DELAY_HINT`).
            .hint: row("TB8", "hint", .queue, group: "CONTENT_HINTS", skipsWhenBusy: true),
        ]
    }()

    /// Decides what happens to `request` with `text` given what the channel holds.
    public static func decide(
        _ request: SpeechRequest, text: String, channel: ChannelView, settings: TalkBackSettings
    ) -> ReaderDecision {
        guard let rule = rules[request] else { preconditionFailure("every SpeechRequest has a TalkBack rule") }
        var mode = rule.mode ?? (text.count <= settings.shortAnnouncementLimit ? .uninterruptible : .queue)
        if request == .typingEcho, !settings.typingInterrupts { mode = .queue }
        let lane = rule.group
        let uninterruptible = mode == .uninterruptible
        if rule.skipsDuplicates, isDuplicate(text, channel: channel, window: settings.duplicateWindow) {
            return ReaderDecision(rule: rule.name, reaction: .drop(.duplicate), lane: lane)
        }
        if rule.skipsWhenBusy, channel.current != nil {
            return ReaderDecision(rule: rule.name, reaction: .drop(.channelBusy), lane: lane)
        }
        switch mode {
        case .interrupt, .flushAll:
            // Interruptible items go, queued and speaking; an uninterruptible one keeps speaking and the newcomer
            // waits behind it and behind the uninterruptible items still queued.
            let drop = QueueDrop(onlyInterruptible: true, reason: .speechCancelled)
            let cuts = channel.current.map { !$0.uninterruptible } ?? true
            return ReaderDecision(
                rule: rule.name, reaction: cuts ? .interrupt : .enqueue, drop: drop, lane: lane)
        case .queue, .uninterruptible:
            let drop =
                rule.replacesQueuedOfGroup
                ? QueueDrop(lanes: [lane], onlyInterruptible: true, reason: .superseded) : nil
            return ReaderDecision(
                rule: rule.name, reaction: .enqueue, drop: drop, lane: lane, uninterruptible: uninterruptible)
        }
    }

    /// `FLAG_SKIP_DUPLICATE`: the same text is speaking, waiting, or ended within `window`.
    static func isDuplicate(_ text: String, channel: ChannelView, window: TimeSpan) -> Bool {
        if channel.current?.utterance.text == text { return true }
        if channel.queued.contains(where: { $0.utterance.text == text }) { return true }
        return channel.recentlyEnded.contains { $0.text == text && $0.ago < window }
    }
}
