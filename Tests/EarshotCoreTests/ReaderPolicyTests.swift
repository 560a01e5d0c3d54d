import EarshotCore
import Testing

/// A channel entry for the tables below.
func entry(
    _ id: Int, _ text: String, lane: String, rank: Int = 0, uninterruptible: Bool = false, client: String = "reader"
)
    -> ChannelEntry
{
    ChannelEntry(
        utterance: Utterance(id: id, text: text, kind: .announcement, cause: "test", requestedAt: .zero), lane: lane,
        rank: rank, uninterruptible: uninterruptible, client: client)
}

func utterance(_ id: Int, _ text: String, _ kind: UtteranceKind = .announcement) -> Utterance {
    Utterance(id: id, text: text, kind: kind, cause: "test", requestedAt: .zero)
}

/// TalkBack's rule table over every request × channel state, written out by hand from its queue modes.
@Suite struct TalkBackPolicyTests {
    enum State: String, CaseIterable { case idle, interruptible, uninterruptible }

    static func view(_ state: State) -> ChannelView {
        switch state {
        case .idle: return .idle
        case .interruptible: return ChannelView(current: entry(90, "Cart, 3 items, button", lane: "DEFAULT"))
        case .uninterruptible:
            return ChannelView(current: entry(90, "Saved", lane: "DEFAULT", uninterruptible: true))
        }
    }

    /// Per request: reaction when idle, while an interruptible item speaks, while an uninterruptible one speaks;
    /// which queued items go ("interruptible", "group", or "none"); the rule.
    static let expected: [SpeechRequest: (ChannelReaction, ChannelReaction, ChannelReaction, String, String)] = [
        .announcementDefault: (.enqueue, .enqueue, .enqueue, "none", "TB1"),
        .layoutChangeString: (.enqueue, .enqueue, .enqueue, "none", "TB1"),
        .pageScrolled: (.enqueue, .enqueue, .enqueue, "none", "TB1"),
        .announcementQueued: (.enqueue, .enqueue, .enqueue, "group", "TB2"),
        .announcementHigh: (.interrupt, .interrupt, .enqueue, "interruptible", "TB3"),
        .focusMove: (.interrupt, .interrupt, .enqueue, "interruptible", "TB4"),
        .layoutChangeElement: (.interrupt, .interrupt, .enqueue, "interruptible", "TB4"),
        .screenChange: (.enqueue, .enqueue, .enqueue, "none", "TB5"),
        .typingEcho: (.interrupt, .interrupt, .enqueue, "interruptible", "TB6"),
        .poll: (.enqueue, .enqueue, .enqueue, "group", "TB7"),
        .valueEcho: (.enqueue, .enqueue, .enqueue, "group", "TB7"),
        .hint: (.enqueue, .drop(.channelBusy), .drop(.channelBusy), "none", "TB8"),
    ]

    static let pairs = SpeechRequest.allCases.flatMap { request in State.allCases.map { (request, $0) } }

    @Test(arguments: pairs)
    func everyRequestInEveryStateFollowsTheRuleTable(request: SpeechRequest, state: State) throws {
        let row = try #require(Self.expected[request])
        let decision = TalkBackPolicy.decide(
            request, text: "A new message", channel: Self.view(state), settings: TalkBackSettings())
        let reaction = state == .idle ? row.0 : state == .interruptible ? row.1 : row.2
        #expect(decision.reaction == reaction)
        #expect(decision.rule == row.4)
        let queuedShort = entry(1, "Sent", lane: "DEFAULT", uninterruptible: true)
        let queuedChange = entry(2, "4 results", lane: "CONTENT_CHANGE")
        let removed = [queuedShort, queuedChange].filter { decision.drop?.matches($0) ?? false }.map(\.utterance.id)
        switch row.3 {
        case "interruptible": #expect(removed == [2])
        case "group": #expect(removed == (decision.lane == "CONTENT_CHANGE" ? [2] : []))
        default: #expect(removed.isEmpty)
        }
    }

    @Test(arguments: [
        ("Saved", true), ("Exactly thirty characters here", true), ("Your order is on the way to you", false),
    ])
    func announcementsOfThirtyCharactersOrFewerCannotBeCutByNewSpeech(text: String, uninterruptible: Bool) {
        let decision = TalkBackPolicy.decide(
            .announcementDefault, text: text, channel: .idle, settings: TalkBackSettings())
        #expect(decision.uninterruptible == uninterruptible)
    }

    @Test(arguments: [(TimeSpan.milliseconds(400), true), (.milliseconds(999), true), (.milliseconds(1000), false)])
    func theSameTextHeardWithinASecondIsSkipped(ago: TimeSpan, skipped: Bool) {
        let view = ChannelView(recentlyEnded: [("Saved", ago)])
        let decision = TalkBackPolicy.decide(
            .announcementDefault, text: "Saved", channel: view, settings: TalkBackSettings())
        #expect((decision.reaction == .drop(.duplicate)) == skipped)
    }

    @Test func theSameTextWaitingOrSpeakingIsSkippedButFocusReadsAreNot() {
        let view = ChannelView(current: entry(1, "Saved", lane: "DEFAULT"))
        #expect(
            TalkBackPolicy.decide(.announcementDefault, text: "Saved", channel: view, settings: TalkBackSettings())
                .reaction == .drop(.duplicate))
        #expect(
            TalkBackPolicy.decide(.focusMove, text: "Saved", channel: view, settings: TalkBackSettings()).reaction
                == .interrupt)
    }

    @Test func aFocusMoveCutsNeitherAShortAnnouncementSpeakingNorOneWaiting() {
        var profile = UserProfile.voiceOver.reading(with: .talkBack)
        profile.talkBack = TalkBackSettings()
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "Added"), as: .announcementDefault, profile: profile)
        _ = channel.request(utterance(1, "Sent"), as: .announcementDefault, profile: profile)
        _ = channel.request(
            utterance(2, "A long announcement that anything may cut"), as: .announcementDefault, profile: profile)
        let (_, effects) = channel.request(utterance(3, "Cart, button", .focusRead), as: .focusMove, profile: profile)
        #expect(!effects.contains { if case .cut = $0 { true } else { false } })
        #expect(effects.contains { if case .drop(let u, .speechCancelled, _) = $0 { u.id == 2 } else { false } })
        #expect(channel.current?.id == 0)
        #expect(channel.queue.map(\.id) == [1, 3])
    }

    @Test func aNewerContentChangeReplacesTheQueuedOneButNotTheOneSpeaking() {
        let profile = UserProfile.voiceOver.reading(with: .talkBack)
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "12 results"), as: .announcementQueued, profile: profile)
        _ = channel.request(utterance(1, "9 results"), as: .announcementQueued, profile: profile)
        let (_, effects) = channel.request(utterance(2, "4 results"), as: .announcementQueued, profile: profile)
        #expect(effects == [.drop(utterance(1, "9 results"), reason: .superseded, by: 2)])
        #expect(channel.current?.id == 0)
        #expect(channel.queue.map(\.id) == [2])
    }
}

/// NVDA's rule table over every request × channel state, from its speech manager's priorities.
@Suite struct NVDAPolicyTests {
    enum State: String, CaseIterable { case idle, focusSpeech, message }

    static func view(_ state: State) -> ChannelView {
        switch state {
        case .idle: return .idle
        case .focusSpeech: return ChannelView(current: entry(90, "Cart, button", lane: NVDAPolicy.focusLane))
        case .message: return ChannelView(current: entry(90, "Saved", lane: NVDAPolicy.messageLane))
        }
    }

    /// Per request: reaction when idle, during focus speech, during a message; what it removes from the queue
    /// ("all", "focus", "none"); its rank; the rule.
    static let expected: [SpeechRequest: (ChannelReaction, ChannelReaction, ChannelReaction, String, Int, String)] = [
        .announcementDefault: (.enqueue, .enqueue, .enqueue, "none", 0, "NV1"),
        .announcementQueued: (.enqueue, .enqueue, .enqueue, "none", 0, "NV1"),
        .layoutChangeString: (.enqueue, .enqueue, .enqueue, "none", 0, "NV1"),
        .pageScrolled: (.enqueue, .enqueue, .enqueue, "none", 0, "NV1"),
        .announcementHigh: (.afterCurrent, .afterCurrent, .afterCurrent, "none", 1, "NV2"),
        .focusMove: (.interrupt, .interrupt, .interrupt, "all", 0, "NV3"),
        .screenChange: (.enqueue, .cutThenQueue, .enqueue, "focus", 0, "NV4"),
        .layoutChangeElement: (.enqueue, .cutThenQueue, .enqueue, "focus", 0, "NV4"),
        .typingEcho: (.interrupt, .interrupt, .interrupt, "all", 0, "NV5"),
        .valueEcho: (.interrupt, .interrupt, .interrupt, "all", 0, "NV5"),
        .poll: (.enqueue, .drop(.channelBusy), .drop(.channelBusy), "none", 0, "NV6"),
        .hint: (.enqueue, .drop(.channelBusy), .drop(.channelBusy), "none", 0, "NV7"),
    ]

    static let pairs = SpeechRequest.allCases.flatMap { request in State.allCases.map { (request, $0) } }

    @Test(arguments: pairs)
    func everyRequestInEveryStateFollowsTheRuleTable(request: SpeechRequest, state: State) throws {
        let row = try #require(Self.expected[request])
        let decision = NVDAPolicy.decide(request, channel: Self.view(state), settings: NVDASettings())
        let reaction = state == .idle ? row.0 : state == .focusSpeech ? row.1 : row.2
        #expect(decision.reaction == reaction)
        #expect(decision.rank == row.4)
        #expect(decision.rule == row.5)
        let queuedFocus = entry(1, "Lap, button", lane: NVDAPolicy.focusLane)
        let queuedMessage = entry(2, "Saved", lane: NVDAPolicy.messageLane)
        let removed = [queuedFocus, queuedMessage].filter { decision.drop?.matches($0) ?? false }.map(\.utterance.id)
        switch row.3 {
        case "all": #expect(removed == [1, 2])
        case "focus": #expect(removed == [1])
        default: #expect(removed.isEmpty)
        }
    }

    @Test func typedCharactersKeepSpeechWhenInterruptForTypedCharactersIsOff() {
        var settings = NVDASettings()
        settings.interruptForTypedCharacters = false
        let decision = NVDAPolicy.decide(.typingEcho, channel: Self.view(.message), settings: settings)
        #expect(decision.reaction == .enqueue)
        #expect(decision.drop == nil)
    }

    @Test func nextSpeechGoesAfterTheCurrentUtteranceAndBeforeQueuedNormalSpeech() {
        let profile = UserProfile.voiceOver.reading(with: .nvda)
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "one"), as: .announcementDefault, profile: profile)
        _ = channel.request(utterance(1, "two"), as: .announcementDefault, profile: profile)
        _ = channel.request(utterance(2, "urgent"), as: .announcementHigh, profile: profile)
        _ = channel.request(utterance(3, "urgent too"), as: .announcementHigh, profile: profile)
        #expect(channel.current?.id == 0)
        #expect(channel.queue.map(\.id) == [2, 3, 1])
    }

    @Test func aFocusEventDropsStaleFocusSpeechAndKeepsMessages() {
        let profile = UserProfile.voiceOver.reading(with: .nvda)
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "Cart, button", .focusRead), as: .focusMove, profile: profile)
        _ = channel.request(utterance(1, "Saved"), as: .announcementDefault, profile: profile)
        let (_, effects) = channel.request(
            utterance(2, "Orders, heading", .screenChange), as: .screenChange, profile: profile)
        #expect(effects.contains { if case .cut(let u, _) = $0 { u.id == 0 } else { false } })
        #expect(effects.contains(.start(utterance(1, "Saved"))))
        #expect(channel.current?.id == 1)
        #expect(channel.queue.map(\.id) == [2])
    }
}

/// speech-dispatcher's rule table: every arriving priority against every speaking priority.
@Suite struct SpeechDispatcherPolicyTests {
    typealias P = SSIPPriority

    /// Reaction by arriving priority, for speaking nothing / important / message / text / notification / progress
    /// (speech-dispatcher's `resolve_priorities`, written out).
    static let expected: [P: [ChannelReaction]] = [
        .important: [.enqueue, .enqueue, .interrupt, .interrupt, .interrupt, .interrupt],
        .message: [.enqueue, .enqueue, .enqueue, .interrupt, .interrupt, .interrupt],
        .text: [.enqueue, .enqueue, .enqueue, .interrupt, .interrupt, .interrupt],
        .notification: [
            .enqueue, .drop(.cancelledByPriority), .drop(.cancelledByPriority), .drop(.cancelledByPriority),
            .interrupt, .drop(.cancelledByPriority),
        ],
        .progress: [.enqueue, .enqueue, .enqueue, .enqueue, .interrupt, .enqueue],
    ]
    /// Queued priorities an arrival removes.
    static let removes: [P: Set<P>] = [
        .important: [.notification, .progress], .message: [.text, .notification, .progress],
        .text: [.text, .notification, .progress], .notification: [.notification],
        .progress: [.notification, .progress],
    ]

    static let pairs: [(P, P?)] = P.allCases.flatMap { incoming in
        ([nil] + P.allCases.map(Optional.some)).map { (incoming, $0) }
    }

    @Test(arguments: pairs)
    func everyPriorityAgainstEverySpeakingPriorityFollowsTheRuleTable(incoming: P, speaking: P?) throws {
        let view = ChannelView(current: speaking.map { entry(90, "speaking", lane: $0.rawValue, rank: $0.rank) })
        let decision = SpeechDispatcherPolicy.decide(incoming, channel: view)
        let column = speaking.map { P.allCases.firstIndex(of: $0)! + 1 } ?? 0
        #expect(decision.reaction == Self.expected[incoming]?[column])
        #expect(decision.rank == incoming.rank)
        #expect(decision.rule == "SD-\(incoming.rawValue)")
        if case .drop = decision.reaction { return }
        for queued in P.allCases {
            let waiting = entry(1, "waiting", lane: queued.rawValue, rank: queued.rank)
            #expect((decision.drop?.matches(waiting) ?? false) == Self.removes[incoming]?.contains(queued))
        }
    }

    @Test func theQueueServesImportantThenMessageThenTextThenNotificationThenProgress() {
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "speaking"), ssip: .important, client: "a")
        _ = channel.request(utterance(1, "progress"), ssip: .progress, client: "a")
        _ = channel.request(utterance(2, "text"), ssip: .text, client: "b")
        _ = channel.request(utterance(3, "message"), ssip: .message, client: "b")
        _ = channel.request(utterance(4, "important"), ssip: .important, client: "c")
        // The message removed the queued text; the progress (the last of its series) went to the message queue.
        #expect(channel.queue.map(\.text) == ["important", "progress", "message"])
    }

    @Test func progressReplacedWhileSomethingSpeaksIsHeldUntilAMessageBringsItBack() {
        // The server keeps every progress message since anything last started; a message that empties the progress
        // queue moves them all to the message queue, in arrival order (found by the conformance suite).
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "Copying"), ssip: .message, client: "a")
        _ = channel.request(utterance(1, "10 percent"), ssip: .progress, client: "a")
        let (_, superseding) = channel.request(utterance(2, "50 percent"), ssip: .progress, client: "a")
        #expect(superseding.isEmpty)
        #expect(channel.queue.map(\.text) == ["50 percent"])
        let (_, effects) = channel.request(utterance(3, "Done"), ssip: .message, client: "a")
        #expect(effects.isEmpty)
        #expect(channel.queue.map(\.text) == ["10 percent", "50 percent", "Done"])
    }

    @Test func promotedProgressIsOlderSoItSpeaksBeforeTheMessageThatCutTheSeries() {
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "Copying"), ssip: .progress, client: "a")
        _ = channel.request(utterance(1, "40 percent"), ssip: .progress, client: "a")
        let (_, effects) = channel.request(utterance(2, "Done"), ssip: .message, client: "b")
        #expect(
            effects.first
                == .cut(utterance(0, "Copying"), by: Interruption(utterance: 2, description: "announcement \"Done\"")))
        #expect(effects.last == .start(utterance(1, "40 percent")))
        #expect(channel.queue.map(\.text) == ["Done"])
    }

    @Test func progressReplacedWhileSomethingSpeaksIsDroppedWhenTheNextMessageStarts() {
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "Copying"), ssip: .progress, client: "a")
        _ = channel.request(utterance(1, "10 percent"), ssip: .progress, client: "a")
        _ = channel.request(utterance(2, "50 percent"), ssip: .progress, client: "a")
        let effects = channel.currentFinished()
        #expect(
            effects == [
                .start(utterance(2, "50 percent")), .drop(utterance(1, "10 percent"), reason: .superseded, by: nil),
            ])
        let (_, later) = channel.request(utterance(3, "Done"), ssip: .message, client: "a")
        #expect(later.contains { if case .cut(let u, _) = $0 { u.id == 2 } else { false } })
        #expect(channel.queue.isEmpty)
        #expect(channel.current?.id == 3)
    }

    @Test func aNotificationIsDiscardedWhileAnythingElseSpeaksAndReplacesAnotherNotification() {
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "a"), ssip: .notification, client: "a")
        let (_, replacing) = channel.request(utterance(1, "b"), ssip: .notification, client: "a")
        #expect(replacing.contains { if case .cut(let u, _) = $0 { u.id == 0 } else { false } })
        _ = channel.request(utterance(2, "text"), ssip: .text, client: "a")
        let (_, discarded) = channel.request(utterance(3, "c"), ssip: .notification, client: "a")
        #expect(discarded == [.drop(utterance(3, "c"), reason: .cancelledByPriority, by: 2)])
    }

    @Test func stopCutsOnlyTheClientsSpeakingMessageAndCancelAlsoDropsItsQueue() {
        var channel = SpeechChannel()
        _ = channel.request(utterance(0, "one"), ssip: .message, client: "a")
        _ = channel.request(utterance(1, "two"), ssip: .message, client: "a")
        _ = channel.request(utterance(2, "three"), ssip: .message, client: "b")
        #expect(channel.stop(client: "b", dropQueued: false, cause: "stop").isEmpty)
        let stopped = channel.stop(client: "a", dropQueued: false, cause: "stop")
        #expect(stopped.count == 2)
        #expect(stopped.last == .start(utterance(1, "two")))
        #expect(channel.queue.map(\.id) == [2])
        let cancelled = channel.stop(client: "b", dropQueued: true, cause: "cancel")
        #expect(cancelled == [.drop(utterance(2, "three"), reason: .clientCancelled, by: nil)])
        #expect(channel.current?.id == 1)
        let cancelledSpeaking = channel.stop(client: "a", dropQueued: true, cause: "cancel")
        #expect(cancelledSpeaking.count == 1)
        #expect(channel.current == nil)
    }

    @Test(arguments: SpeechRequest.allCases)
    func everyScriptRequestMapsToAnSSIPPriority(request: SpeechRequest) {
        let expected: P
        switch request {
        case .announcementHigh: expected = .important
        case .announcementDefault, .announcementQueued, .layoutChangeString, .pageScrolled: expected = .message
        case .focusMove, .screenChange, .layoutChangeElement, .valueEcho: expected = .text
        case .typingEcho, .hint: expected = .notification
        case .poll: expected = .progress
        }
        #expect(SpeechDispatcherPolicy.priority(for: request) == expected)
    }
}
