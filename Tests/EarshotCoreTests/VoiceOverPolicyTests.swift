import EarshotCore
import Testing

/// The rule table over every (incoming request × channel state) pair, against docs/speech-model.md written out by hand.
@Suite struct VoiceOverPolicyTests {
    enum State: String, CaseIterable { case idle, interruptible, high, focusRead }

    static func channel(_ state: State) -> ChannelState {
        switch state {
        case .idle: return .idle
        case .interruptible: return .speaking(kind: .announcement, interruptible: true)
        case .high: return .speaking(kind: .announcement, interruptible: false)
        case .focusRead: return .speaking(kind: .focusRead, interruptible: true)
        }
    }

    /// The expected reaction per request in states I, D, H (docs/speech-model.md), and the queue effect.
    static let expected: [SpeechRequest: (ChannelReaction, ChannelReaction, ChannelReaction, QueueEffect, String)] = [
        .announcementDefault: (.speak, .interrupt, .afterCurrent, .keep, "V1"),
        .announcementQueued: (.speak, .enqueue, .enqueue, .keep, "V2"),
        .announcementHigh: (.speak, .interrupt, .afterCurrent, .keep, "V3"),
        .focusMove: (.speak, .interrupt, .afterCurrent, .clear, "V4"),
        .screenChange: (.speak, .interrupt, .afterCurrent, .clear, "V5"),
        .layoutChangeElement: (.speak, .interrupt, .afterCurrent, .keep, "V6"),
        .layoutChangeString: (.speak, .interrupt, .afterCurrent, .keep, "V8"),
        .pageScrolled: (.speak, .interrupt, .afterCurrent, .keep, "V8"),
        .poll: (.speak, .drop(.channelBusy), .drop(.channelBusy), .keep, "V10"),
        .typingEcho: (.speak, .interrupt, .afterCurrent, .keep, "V11"),
        .hint: (.speak, .drop(.channelBusy), .drop(.channelBusy), .keep, "V12"),
        .valueEcho: (.speak, .interrupt, .afterCurrent, .keep, "V11"),
    ]

    static let pairs: [(SpeechRequest, State)] = SpeechRequest.allCases.flatMap { request in
        State.allCases.map { (request, $0) }
    }

    @Test(arguments: pairs)
    func everyRequestInEveryStateFollowsTheRuleTable(request: SpeechRequest, state: State) throws {
        let row = try #require(Self.expected[request])
        let decision = VoiceOverPolicy.decide(request, channel: Self.channel(state), settings: VoiceOverSettings())
        let reaction: ChannelReaction
        switch state {
        case .idle: reaction = row.0
        case .interruptible, .focusRead: reaction = row.1
        case .high: reaction = row.2
        }
        #expect(decision.reaction == reaction)
        #expect(decision.queue == row.3)
        #expect(decision.rule == row.4)
    }

    @Test(arguments: pairs)
    func focusReadPreemptionDropsOnlyAnnouncementsArrivingDuringAFocusRead(request: SpeechRequest, state: State) {
        var settings = VoiceOverSettings()
        settings.focusReadPreemptsAnnouncements = true
        let decision = VoiceOverPolicy.decide(request, channel: Self.channel(state), settings: settings)
        let preempted =
            state == .focusRead
            && [.announcementDefault, .announcementHigh, .layoutChangeString, .pageScrolled].contains(request)
        #expect((decision.reaction == .drop(.focusReadPreempted)) == preempted)
        #expect((decision.rule == "V13") == preempted)
    }

    static let announcementCases: [(Priority, Bool)] = Priority.allCases.flatMap { p in [false, true].map { (p, $0) } }

    @Test(arguments: announcementCases)
    func announcementPriorityAndQueueAttributeMapToTheirRule(priority: Priority, queued: Bool) {
        let request = SpeechRequest.announcement(priority: priority, queued: queued)
        switch (priority, queued) {
        case (.high, _): #expect(request == .announcementHigh)
        case (.low, _), (.default, true): #expect(request == .announcementQueued)
        case (.default, false): #expect(request == .announcementDefault)
        }
    }

    /// Every (incoming kind × priority) against (channel state × current kind), through the channel itself.
    static let channelCases: [(Priority, Priority?)] = Priority.allCases.flatMap { incoming in
        ([nil] + Priority.allCases.map(Optional.some)).map { (incoming, $0) }
    }

    @Test(arguments: channelCases)
    func incomingAnnouncementAgainstCurrentAnnouncement(incoming: Priority, current: Priority?) {
        var channel = SpeechChannel()
        let settings = VoiceOverSettings()
        if let current {
            let first = Utterance(
                id: 0, text: "first", kind: .announcement, priority: current, cause: "test", requestedAt: .zero)
            _ = channel.request(first, as: .announcement(priority: current, queued: false), settings: settings)
        }
        let second = Utterance(
            id: 1, text: "second", kind: .announcement, priority: incoming, cause: "test", requestedAt: .zero)
        let (_, effects) = channel.request(
            second, as: .announcement(priority: incoming, queued: false), settings: settings)
        let cutFirst = effects.contains { if case .cut = $0 { true } else { false } }
        let startedSecond = effects.contains(.start(second))
        switch current {
        case nil:
            #expect(startedSecond && !cutFirst)
        case .high?:
            #expect(!startedSecond && !cutFirst)
            #expect(channel.queue.first == second)
        case .default?, .low?:
            #expect(cutFirst == (incoming != .low))
            #expect(startedSecond == (incoming != .low))
        }
    }
}

@Suite struct StateMachineTests {
    @Test func debouncerWithNoTriggerNeverRuns() {
        var machine = Debouncer(delay: .milliseconds(600))
        #expect(machine.fired(generation: 0) == .ignore)
        #expect(machine.armed == nil)
    }

    @Test func debouncerWithOneTriggerRunsOnceAtTheDeadline() {
        var machine = Debouncer(delay: .milliseconds(600))
        #expect(
            machine.trigger(at: .milliseconds(100))
                == .arm(deadline: .milliseconds(700), generation: 0, cancelling: nil))
        #expect(machine.fired(generation: 0) == .run)
        #expect(machine.fired(generation: 0) == .ignore)
    }

    @Test func debouncerWithManyTriggersRunsOnlyTheLast() {
        var machine = Debouncer(delay: .milliseconds(600))
        for index in 0..<7 { _ = machine.trigger(at: .milliseconds(Int64(index) * 150)) }
        for stale in 0..<6 { #expect(machine.fired(generation: stale) == .ignore) }
        #expect(machine.fired(generation: 6) == .run)
    }

    @Test func triggerExactlyAtTheDeadlineLosesToTheTimerThatWasScheduledFirst() throws {
        // The timer was inserted before the trigger at the same instant, so it runs first: the debounced work
        // happens, then the new trigger arms a fresh timer — exactly what `.task(id:)` does in that race.
        let scheduler = Scheduler()
        var machine = Debouncer(delay: .milliseconds(600))
        var runs: [Instant] = []
        func trigger() {
            if case .arm(let deadline, let generation, _) = machine.trigger(at: scheduler.now) {
                scheduler.schedule(at: deadline) {
                    if machine.fired(generation: generation) == .run { runs.append(scheduler.now) }
                }
            }
        }
        trigger()
        scheduler.schedule(at: .milliseconds(600)) { trigger() }
        scheduler.advance(to: .seconds(5))
        #expect(runs == [.milliseconds(600), .milliseconds(1200)])
    }

    @Test func pollerSpeaksOnlyWhatChangedSinceItWasLastHeard() {
        var poller = Poller(label: "Stopwatch", value: "00:00:01")
        #expect(poller.changedText(label: "Stopwatch", value: "00:00:01") == nil)
        #expect(poller.changedText(label: "Stopwatch", value: "00:00:02") == "00:00:02")
        // A skipped tick (busy channel) is not heard: the next tick still compares with the last heard value.
        #expect(poller.changedText(label: "Stopwatch", value: "00:00:04") == "00:00:04")
        poller.heard(label: "Stopwatch", value: "00:00:04")
        #expect(poller.changedText(label: "Stopwatch", value: "00:00:04") == nil)
    }

    @Test func pollerReadsTheLabelWhenOnlyTheLabelChanged() {
        let poller = Poller(label: "Uploading receipt", value: "60 percent")
        #expect(poller.changedText(label: "Upload paused", value: "60 percent") == "Upload paused")
        #expect(poller.changedText(label: "Uploading", value: "70 percent") == "Uploading, 70 percent")
    }

    @Test func hintTimerArmsOnlyWithAHintAndHintsOn() {
        var timer = HintTimer()
        var settings = VoiceOverSettings()
        #expect(timer.focusReadFinished(elementID: "a", hint: "", at: .zero, settings: settings) == .none)
        settings.hintsEnabled = false
        #expect(timer.focusReadFinished(elementID: "a", hint: "Opens", at: .zero, settings: settings) == .none)
        settings.hintsEnabled = true
        #expect(
            timer.focusReadFinished(elementID: "a", hint: "Opens", at: .seconds(1), settings: settings)
                == .arm(deadline: .milliseconds(1400), hint: "Opens", generation: 0))
        #expect(timer.fired(generation: 0) == .speak(hint: "Opens", elementID: "a"))
        #expect(timer.fired(generation: 0) == .none)
    }

    @Test func hintTimerDisarmedBeforeFiringSpeaksNothing() {
        var timer = HintTimer()
        _ = timer.focusReadFinished(elementID: "a", hint: "Opens", at: .zero, settings: VoiceOverSettings())
        #expect(timer.disarm() == .disarm(generation: 0))
        #expect(timer.fired(generation: 0) == .none)
        #expect(timer.disarm() == .none)
    }
}

@Suite struct SchedulerTests {
    @Test func tasksRunByDeadlineThenInsertion() {
        let scheduler = Scheduler()
        var order: [String] = []
        scheduler.schedule(at: .milliseconds(20)) { order.append("b") }
        scheduler.schedule(at: .milliseconds(10)) { order.append("a") }
        scheduler.schedule(at: .milliseconds(20)) { order.append("c") }
        scheduler.advance(to: .seconds(1))
        #expect(order == ["a", "b", "c"])
        #expect(scheduler.now == .seconds(1))
    }

    @Test func timeNeverGoesBackwards() {
        let scheduler = Scheduler()
        scheduler.advance(to: .seconds(2))
        scheduler.advance(to: .seconds(1))
        #expect(scheduler.now == .seconds(2))
        var ranAt: Instant?
        scheduler.schedule(at: .seconds(1)) { ranAt = scheduler.now }
        scheduler.advance(by: .zero)
        #expect(ranAt == .seconds(2))
    }

    @Test func cancelledTimersNeverRun() {
        let scheduler = Scheduler()
        var ran = false
        let id = scheduler.schedule(after: .seconds(1)) { ran = true }
        scheduler.cancel(id)
        scheduler.advance(by: .seconds(2))
        #expect(!ran)
        #expect(scheduler.isIdle)
    }

    @Test func repeatingTimersKeepTheirPhaseUntilCancelled() {
        let scheduler = Scheduler()
        var ticks: [Instant] = []
        var id: TimerID?
        id = scheduler.scheduleRepeating(every: .milliseconds(250), startingAt: .milliseconds(100)) {
            ticks.append(scheduler.now)
            if ticks.count == 4, let id { scheduler.cancel(id) }
        }
        scheduler.advance(to: .seconds(5))
        #expect(ticks == [.milliseconds(100), .milliseconds(350), .milliseconds(600), .milliseconds(850)])
    }

    @Test func framesAndInstantsRoundTrip() {
        for frame in [0, 1, 220, 22049, 22050, 1_000_003] {
            #expect(Instant.ofFrame(frame, rate: 22050).frame(atRate: 22050) == frame)
        }
    }
}
