extension Simulation {
    /// Asks the channel to speak; the profile's rule table decides what happens.
    @discardableResult
    func speak(
        _ text: String, kind: UtteranceKind, request: SpeechRequest, priority: Priority = .default,
        queued: Bool = false, elementID: String? = nil, cause: String
    ) -> UtteranceID {
        let id = timeline.utterances.count
        let utterance = Utterance(
            id: id, text: text, kind: kind, priority: priority, queued: queued, elementID: elementID, cause: cause,
            requestedAt: now)
        let requested = nextSequence()
        guard profile.technology != .none else {
            var record = UtteranceRecord(
                utterance: utterance, voice: voice, rule: "-", outcome: .dropped(at: now, reason: .speechOff, by: nil))
            record.requestSequence = requested
            record.outcomeSequence = requested
            timeline.utterances.append(record)
            return id
        }
        let (decision, effects) = channel.request(
            utterance, as: request, profile: profile, recentlyEnded: recentlyEnded())
        var record = UtteranceRecord(utterance: utterance, voice: voice, rule: decision.rule)
        record.requestSequence = requested
        timeline.utterances.append(record)
        apply(effects)
        return id
    }

    /// Performs the channel's effects, in order.
    func apply(_ effects: [ChannelEffect]) {
        for effect in effects {
            switch effect {
            case .start(let utterance): start(utterance)
            case .cut(let utterance, let interruption): cut(utterance, by: interruption)
            case .drop(let utterance, let reason, let by):
                timeline.utterances[utterance.id].outcome = .dropped(at: now, reason: reason, by: by)
                timeline.utterances[utterance.id].outcomeSequence = nextSequence()
                if utterance.isAppAnnouncement, profile.voiceOver.notifyDroppedQueued {
                    didFinish(utterance, success: false)
                }
            }
        }
    }

    /// Starts an utterance. Its end is scheduled now, in the order full knowledge of its length would give, but
    /// its length is worked out only when the clock gets there (``speechEnd(of:startedAt:horizon:)``): an
    /// utterance cut first is never synthesized past what decides its cut.
    private func start(_ utterance: Utterance) {
        disarmHint()
        timeline.utterances[utterance.id].timing = speech.knownTiming(for: utterance.text, voice: voice)
        timeline.utterances[utterance.id].outcome = .speaking(start: now)
        timeline.utterances[utterance.id].outcomeSequence = nextSequence()
        let startedAt = now
        let timer = scheduler.schedule(
            notBefore: startedAt,
            resolving: { [unowned self] horizon in speechEnd(of: utterance, startedAt: startedAt, horizon: horizon) }
        ) { [unowned self] in
            finished(utterance, startedAt: startedAt)
        }
        speakingEnd = (utterance.id, timer)
        onSignal?(.started(timeline.utterances[utterance.id]))
    }

    /// When a speaking utterance ends, as far as the clock's `horizon` needs: its end when its audio stops before
    /// the horizon, else an instant past the horizon that its audio surely reaches. When the latest utterances
    /// were nearly all heard to their end, this one is synthesized in full at once (one request, not several).
    private func speechEnd(of utterance: Utterance, startedAt: Instant, horizon: Instant?) -> DeadlineEstimate {
        let rate = speech.sampleRate
        do {
            let timing: SpeechTiming
            if let horizon, !outlook.expectsCompletion {
                let frames = max(0, horizon.frame(atRate: rate) - startedAt.frame(atRate: rate))
                // One frame more than the horizon's: the bound below then lies past it however instants round.
                timing = try speech.timing(
                    for: utterance.text, voice: voice, beyond: frames + 1,
                    askingAtLeast: outlook.leastFrames(sampleRate: rate))
            } else {
                timing = try speech.timing(for: utterance.text, voice: voice)
            }
            timeline.utterances[utterance.id].timing = timing
            return timing.isComplete
                ? .at(startedAt + timing.duration) : .after(startedAt + TimeSpan.frames(timing.frameCount, rate: rate))
        } catch {
            // The run stops with the error (`advance` throws it); the utterance ends where its audio ran out.
            failure = failure ?? error
            return .at(startedAt)
        }
    }

    private func cut(_ utterance: Utterance, by interruption: Interruption) {
        guard case .speaking(let start) = timeline.utterances[utterance.id].outcome else { return }
        if let speakingEnd, speakingEnd.id == utterance.id { scheduler.cancel(speakingEnd.timer) }
        speakingEnd = nil
        let heardFrames =
            (now - start).nanoseconds == 0
            ? 0
            : now.frame(atRate: speech.sampleRate)
                - start.frame(atRate: speech.sampleRate)
        do {
            let timing = try speech.timing(for: utterance.text, voice: voice, decidedThrough: heardFrames)
            timeline.utterances[utterance.id].timing = timing
            timeline.utterances[utterance.id].cutPoint = timing.cut(afterFrames: heardFrames)
        } catch {
            failure = failure ?? error
        }
        timeline.utterances[utterance.id].outcome = .interrupted(start: start, cut: now, by: interruption)
        timeline.utterances[utterance.id].cutSequence = nextSequence()
        outlook.record(cut: true)
        onSignal?(.cut(utterance.id, heardFrames: heardFrames))
        if utterance.isAppAnnouncement { didFinish(utterance, success: false) }
    }

    private func finished(_ utterance: Utterance, startedAt: Instant) {
        speakingEnd = nil
        timeline.utterances[utterance.id].outcome = .spoken(start: startedAt, end: now)
        outlook.record(cut: false)
        onSignal?(.finished(utterance.id))
        if utterance.isAppAnnouncement { didFinish(utterance, success: true) }
        if [.focusRead, .screenChange, .layoutChange].contains(utterance.kind), let id = utterance.elementID,
            id == focusedID, let element = screenIndex.element(id)
        {
            armHint(for: element)
        }
        apply(channel.currentFinished())
    }

    private func didFinish(_ utterance: Utterance, success: Bool) {
        record(.announcementDidFinish(utterance: utterance.id, text: utterance.text, wasSuccessful: success))
    }

    // MARK: Hints (V12)

    private func armHint(for element: AccessibilityElement) {
        let action = hint.focusReadFinished(
            elementID: element.id, hint: element.spokenHint(traitHints: profile.voiceOver.traitHints), at: now,
            settings: profile.voiceOver)
        guard case .arm(let deadline, _, let generation) = action else { return }
        hintTimer = scheduler.schedule(at: deadline) { [unowned self] in
            hintTimer = nil
            if case .speak(let text, let id) = hint.fired(generation: generation), id == focusedID {
                speak(text, kind: .hint, request: .hint, elementID: id, cause: "hint of \(id)")
            }
        }
    }

    func disarmHint() {
        if case .disarm = hint.disarm(), let hintTimer { scheduler.cancel(hintTimer) }
        hintTimer = nil
    }

    // MARK: Polling (V10)

    func startPolling(_ element: AccessibilityElement) {
        let machine = Poller(label: element.label, value: element.value)
        let id = element.id
        let timer = scheduler.scheduleRepeating(
            every: profile.voiceOver.pollInterval, startingAt: now + profile.voiceOver.pollInterval
        ) { [unowned self] in pollTick(id) }
        poll = (machine, id, timer)
    }

    func stopPolling() {
        if let poll { scheduler.cancel(poll.timer) }
        poll = nil
    }

    /// V10: a changed element is requested as a poll; the rule table drops it when the channel is busy (the
    /// tick is skipped, recorded as dropped). Only a poll that starts counts as heard, so the next tick speaks
    /// the latest text and nothing stale ever waits.
    private func pollTick(_ id: String) {
        guard let current = poll, current.elementID == id, let element = screenIndex.element(id),
            let text = current.machine.changedText(label: element.label, value: element.value)
        else { return }
        let utterance = speak(text, kind: .poll, request: .poll, elementID: id, cause: "poll of \(id)")
        if case .speaking = timeline.utterances[utterance].outcome {
            poll?.machine.heard(label: element.label, value: element.value)
        }
    }

    // MARK: Switch Control scan

    func startScan() {
        scanTimer = scheduler.scheduleRepeating(every: profile.scanStep, startingAt: now) { [unowned self] in
            scanStep()
        }
    }

    private func scanStep() {
        let index = screenIndex
        let order = index.order
        guard !order.isEmpty else { return }
        let current = scanHighlightID.flatMap(index.position(of:))
        let next = current.map { ($0 + 1) % order.count } ?? 0
        let element = order[next]
        scanHighlightID = element.id
        record(.scanHighlight(elementID: element.id))
        speak(phrase(element), kind: .scan, request: .focusMove, elementID: element.id, cause: "scan")
    }
}
