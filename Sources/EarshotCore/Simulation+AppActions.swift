extension Simulation {
    /// Performs one app action now. `origin` and `iteration` feed `{clock}`, `{countdown}` and `{n}`.
    func run(_ action: AppAction, origin: Instant, iteration: Int) {
        let context = templateContext(origin: origin, iteration: iteration)
        switch action {
        case .announce(let template, let priority, let queued):
            let text = template.evaluate(in: context)
            record(.app("announce \"\(text)\"" + (priority == .default ? "" : " priority \(priority.rawValue)")))
            appSpeech {
                $0.speak(
                    text, kind: .announcement, request: .announcement(priority: priority, queued: queued),
                    priority: priority, queued: queued, cause: "announce")
            }
        case .screenChanged(let target):
            record(.app("screenChanged"))
            screenChanged(target, context: context)
        case .showScreen(let name):
            guard let next = screens[name] else { return }
            screens[screen.name] = screen
            screen = next
            timeline.screens.record(screen, at: now, sequence: nextSequence())
            record(.app("show screen \(name)"))
            screenChanged(.none, context: context)
        case .layoutChanged(let target):
            record(.app("layoutChanged"))
            switch target {
            case .none:
                break  // V7: nothing is spoken and focus stays
            case .element(let id):
                guard screenIndex.isExposed(id) else { return }
                moveFocus(to: id, request: .layoutChangeElement, kind: .layoutChange, cause: .layoutChanged(id))
            case .text(let template):
                let text = template.evaluate(in: context)
                appSpeech { $0.speak(text, kind: .layoutChange, request: .layoutChangeString, cause: "layoutChanged") }
            }
        case .pageScrolled(let template):
            let text = template.evaluate(in: context)
            record(.app("pageScrolled \"\(text)\""))
            appSpeech { $0.speak(text, kind: .pageScrolled, request: .pageScrolled, cause: "pageScrolled") }
        case .setLabel(let id, let template):
            let text = template.evaluate(in: context)
            record(.app("set \(id) label \"\(text)\""))
            updateScreen(id) { $0.label = text }
        case .setValue(let id, let template):
            let text = template.evaluate(in: context)
            record(.app("set \(id) value \"\(text)\""))
            updateScreen(id) { $0.value = text }
        case .setHint(let id, let template):
            let text = template.evaluate(in: context)
            record(.app("set \(id) hint \"\(text)\""))
            updateScreen(id) { $0.hint = text }
        case .setHidden(let id, let hidden):
            record(.app("set \(id) hidden \(hidden)"))
            updateScreen(id) { $0.isHidden = hidden }
        case .setTraits(let id, let adding, let removing):
            record(.app("set \(id) traits"))
            updateScreen(id) { $0.traits = $0.traits.union(adding).subtracting(removing) }
        case .setSwitch(let id, let state):
            record(.app("set \(id) switch \(state.rawValue)"))
            updateScreen(id) { $0.switchState = state }
        case .playSound(let name, let duration):
            record(.sound(name: name, duration: duration, heard: profile.soundOn))
        case .playMedia(let track):
            record(.media(track, heard: profile.soundOn))
            if profile.closedCaptions {
                for cue in track.captions {
                    let start = now + cue.start
                    scheduler.schedule(at: start) { [unowned self] in
                        record(.caption(text: cue.text, until: start + (cue.end - cue.start)))
                    }
                }
            }
        case .showText(let template, let duration):
            record(.visibleText(template.evaluate(in: context), until: duration.map { now + $0 }))
        case .debounce(let key, let delay, let actions):
            var entry = debouncers[key] ?? (Debouncer(delay: delay), nil)
            if case .arm(let deadline, let generation, _) = entry.machine.trigger(at: now) {
                if let old = entry.timer { scheduler.cancel(old) }
                entry.timer = scheduler.schedule(at: deadline) { [unowned self] in
                    guard var fired = debouncers[key], case .run = fired.machine.fired(generation: generation) else {
                        return
                    }
                    fired.timer = nil
                    debouncers[key] = fired
                    run(actions, origin: now)
                }
            }
            debouncers[key] = entry
        case .note(let text):
            record(.app(text))
        case .load(let name, let phase):
            record(.load(name: name, phase: phase))
        case .ssip(let command):
            run(command, context: context)
        case .after(let delay, let actions):
            scheduler.schedule(after: delay) { [unowned self] in run(actions, origin: origin, iteration: iteration) }
        case .repeating(let period, let count, let actions):
            guard count > 0 else { return }
            let start = now
            for index in 1...count {
                scheduler.schedule(at: start + period * index) { [unowned self] in
                    run(actions, origin: start, iteration: index)
                }
            }
        }
    }

    /// App speech (an announcement, a layoutChanged or pageScrolled string) posted after tree changes in the same
    /// update comes after VoiceOver has settled focus on the changed tree (see `run(_:origin:iteration:)`).
    private func appSpeech(_ request: (Simulation) -> Void) {
        settleFocus()
        request(self)
    }

    /// V5: earcon, queue cleared, focus to the given element (or the first), which is read; a string argument is
    /// spoken instead of the element.
    private func screenChanged(_ target: NotificationTarget, context: TemplateContext) {
        record(.earcon(name: "screen-changed", duration: profile.voiceOver.earconDuration))
        let order = screenIndex.order
        var focusID: String?
        var text: String?
        switch target {
        case .none: focusID = order.first?.id
        case .element(let id): focusID = screenIndex.isExposed(id) ? id : order.first?.id
        case .text(let template):
            focusID = order.first?.id
            text = template.evaluate(in: context)
        }
        guard let focusID else {
            // Nothing to focus on the new screen: speech is still flushed (V5), and focus goes nowhere.
            apply(channel.flush(cause: "screenChanged", reason: .screenChanged))
            loseFocus(cause: .screenChanged)
            return
        }
        moveFocus(to: focusID, request: .screenChange, kind: .screenChange, cause: .screenChanged, spokenText: text)
    }
}
