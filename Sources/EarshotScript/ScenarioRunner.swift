import EarshotCore

/// A scenario run headlessly: the document, the profile used and the timeline it produced.
public struct ScenarioRun: Sendable {
    /// The script.
    public var document: ScenarioDocument
    /// The user profile simulated.
    public var profile: UserProfile
    /// The voice VoiceOver spoke with.
    public var voice: VoiceProfile
    /// What happened.
    public var timeline: Timeline
    /// The screens as declared, by name.
    public var screens: [String: Screen]
}

/// Lowers a scenario document to engine inputs and runs it on a virtual clock.
///
/// Everything the script says becomes `Simulation` inputs: screens, data tables, app reactions, timed user
/// and app events. The same lowering feeds headless checks, WAV renders and live playback.
public enum ScenarioRunner {
    /// How long a run may go past the script's end for speech, loads and delayed app work to settle.
    public static let settleLimit = TimeSpan.seconds(30)

    /// The profile a document asks for (or `override`), with the header's settings applied.
    public static func profile(for document: ScenarioDocument, override: String? = nil) throws -> UserProfile {
        let name = override ?? document.header.profile.rawValue
        guard var profile = UserProfile.named(name) else {
            throw ScenarioRunError.unknownProfile(name, known: UserProfile.builtIn.map(\.name))
        }
        let settings = document.header.settings
        if let hints = settings.hints { profile.voiceOver.hintsEnabled = hints }
        if let traitWords = settings.traitWords { profile.voiceOver.traitWords = traitWords }
        if let traitHints = settings.traitHints { profile.voiceOver.traitHints = traitHints }
        if let feedback = settings.typingFeedback {
            switch feedback {
            case .characters: profile.voiceOver.typingFeedback = .characters
            case .words: profile.voiceOver.typingFeedback = .words
            case .both: profile.voiceOver.typingFeedback = .charactersAndWords
            case .none: profile.voiceOver.typingFeedback = .none
            }
        }
        if let poll = settings.pollInterval { profile.voiceOver.pollInterval = poll }
        if let delay = settings.hintDelay { profile.voiceOver.hintDelay = delay }
        if let preempt = settings.focusReadPreemptsAnnouncements {
            profile.voiceOver.focusReadPreemptsAnnouncements = preempt
        }
        if let step = settings.scanStep { profile.scanStep = step }
        if let network = settings.network, let condition = NetworkCondition(rawValue: network.lowercased()) {
            profile.network = condition
        }
        return profile
    }

    /// Builds the simulation for a document, with every input scheduled, without running it.
    public static func prepare(
        _ document: ScenarioDocument, profile: UserProfile, voice: VoiceProfile, speech: SpeechLibrary
    ) -> Simulation {
        let lowering = Lowering(document: document, network: profile.network.rawValue)
        let simulation = Simulation(
            screens: document.screens.map(lowering.screen), profile: profile, voice: voice, speech: speech,
            tables: lowering.tables, reactions: document.reactions.map(lowering.reaction))
        for event in document.timeline { lowering.schedule(event, on: simulation) }
        if profile.technology == .switchControl, !document.timeline.contains(where: Lowering.startsScan) {
            simulation.startScanning()
        }
        return simulation
    }

    /// Runs a document to its end (and until speech settles, at most `settleLimit` more).
    public static func run(
        _ document: ScenarioDocument, profile: UserProfile, voice: VoiceProfile, speech: SpeechLibrary
    ) throws -> ScenarioRun {
        let simulation = prepare(document, profile: profile, voice: voice, speech: speech)
        try simulation.advance(to: document.endTime)
        let limit = document.endTime + settleLimit
        // A load or delayed reaction may outlast the last timed line; run on until nothing is pending but
        // repeating timers (a scan, a poller), or the limit.
        while simulation.isSpeaking || simulation.scheduler.hasPendingOneShot, simulation.now < limit {
            let next = simulation.scheduler.nextDeadline ?? limit
            try simulation.advance(to: min(limit, max(next, simulation.now + .milliseconds(100))))
        }
        try simulation.finish(at: simulation.now)
        let lowering = Lowering(document: document, network: profile.network.rawValue)
        return ScenarioRun(
            document: document, profile: profile, voice: voice, timeline: simulation.timeline,
            screens: Dictionary(
                document.screens.map { ($0.name, lowering.screen($0)) }, uniquingKeysWith: { a, _ in a }))
    }
}

/// Why a scenario could not run.
public enum ScenarioRunError: Error, CustomStringConvertible, Sendable {
    case unknownProfile(String, known: [String])

    public var description: String {
        switch self {
        case .unknownProfile(let name, let known):
            return "unknown profile '\(name)'; known profiles: \(known.joined(separator: ", "))"
        }
    }
}

/// The mapping from script nodes to engine values.
struct Lowering {
    let document: ScenarioDocument
    let network: String

    var tables: [String: [String: String]] {
        Dictionary(
            document.dataTables.map { table in
                (table.name, Dictionary(table.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a }))
            }, uniquingKeysWith: { a, _ in a })
    }

    func screen(_ screen: ScenarioScreen) -> Screen {
        Screen(name: screen.name, elements: screen.elements.map(element))
    }

    func element(_ element: ScenarioElement) -> AccessibilityElement {
        var traits: Traits = []
        for trait in element.allTraits {
            if let named = Traits.named.first(where: { $0.name == trait.rawValue }) { traits.insert(named.trait) }
        }
        let switchState: SwitchState? =
            element.switchOn.map { $0 ? .on : .off }
            ?? (element.kind == .toggle ? .off : nil)
        if switchState != nil { traits.remove(.button) }
        return AccessibilityElement(
            id: element.id, label: element.label, value: element.value ?? "", traits: traits, switchState: switchState,
            hint: element.hint ?? "", isHidden: element.hidden,
            container: element.container.map { $0 == .combine ? .combine : .contain },
            children: element.children.map(self.element), isPlaceholder: element.placeholder,
            headingLevel: element.headingLevel, prompt: element.prompt ?? "", customActions: element.customActions,
            containerType: element.containerType.map { $0 == .list ? .list : .landmark })
    }

    func reaction(_ reaction: ScenarioReaction) -> AppReaction {
        let trigger: AppTrigger
        switch reaction.trigger {
        case .typeIn(let id): trigger = .typed(in: id)
        case .activate(let id): trigger = .activated(id)
        case .focus(let id): trigger = .focused(id)
        case .submit(let id): trigger = .submitted(id)
        case .change(let id): trigger = .changed(id)
        case .increment(let id): trigger = .adjusted(id, .up)
        case .decrement(let id): trigger = .adjusted(id, .down)
        }
        return AppReaction(trigger: trigger, actions: reaction.actions.map(action))
    }

    func action(_ action: ScenarioAppAction) -> AppAction {
        switch action.kind {
        case .announce(let text, let priority, let queued):
            let level: Priority = priority == .high ? .high : priority == .low ? .low : .default
            return .announce(template(text, at: action.location), priority: level, queued: queued)
        case .set(let id, let property):
            switch property {
            case .value(let text): return .setValue(id, template(text, at: action.location))
            case .label(let text): return .setLabel(id, template(text, at: action.location))
            case .hint(let text): return .setHint(id, template(text, at: action.location))
            case .hidden(let hidden): return .setHidden(id, hidden)
            case .switchOn(let on): return .setSwitch(id, on ? .on : .off)
            }
        case .debounce(let delay, let actions):
            return .debounce(key: action.location.description, delay: delay, actions: actions.map(self.action))
        case .after(let delay, let actions):
            return .after(delay, actions.map(self.action))
        case .screenChanged(let argument): return .screenChanged(target(argument, at: action.location))
        case .layoutChanged(let argument): return .layoutChanged(target(argument, at: action.location))
        case .pageScrolled(let text): return .pageScrolled(template(text, at: action.location))
        case .playSound(let name, let duration): return .playSound(name, duration: duration ?? .milliseconds(500))
        case .playMedia(let name): return .playMedia(media(name))
        case .showText(let text, let duration):
            return .showText(template(text, at: action.location), duration: duration)
        case .showScreen(let name): return .showScreen(name)
        case .ssip(let event): return ssip(event, at: action.location)
        case .load(let load):
            let delay = load.delay(on: network)
            return .after(
                .zero,
                [
                    .load(load.name, .started),
                    .after(delay, [.load(load.name, .finished)] + load.actions.map(self.action)),
                ])
        }
    }

    func media(_ name: String) -> MediaTrack {
        guard let media = document.media(named: name) else {
            return MediaTrack(name: name, duration: .zero, narration: [], captions: [])
        }
        let captions = media.captions.enumerated().map { index, cue -> CaptionCue in
            let next = index + 1 < media.captions.count ? media.captions[index + 1].offset : media.duration
            return CaptionCue(start: cue.offset, end: cue.until ?? next, text: cue.text)
        }
        return MediaTrack(
            name: name, duration: media.duration, narration: media.narration.map { ($0.offset, $0.text) },
            captions: captions)
    }

    func target(_ argument: ScenarioNotificationArgument, at location: SourceLocation) -> NotificationTarget {
        switch argument {
        case .none: return .none
        case .element(let id): return .element(id)
        case .text(let text): return .text(template(text, at: location))
        }
    }

    /// The engine's template, remembering the line it was written on for lookup errors.
    func template(_ template: ScenarioTemplate, at location: SourceLocation) -> TextTemplate {
        var lowered = TextTemplate(
            parts: template.parts.map { part -> TextTemplate.Part in
                switch part {
                case .literal(let text): return .literal(text)
                case .value(let id): return .value(of: id)
                case .label(let id): return .label(of: id)
                case .lookup(let table, let key): return .lookup(table: table, keyElement: key)
                case .clock: return .clock
                case .countdown(let total): return .countdown(total: total)
                case .count: return .iteration
                }
            })
        lowered.origin = location.description
        for part in template.parts {
            guard case .lookup(let table, _) = part, let fallback = document.dataTable(named: table)?.defaultValue
            else { continue }
            lowered.lookupDefaults[table] = fallback
        }
        return lowered
    }

    static func startsScan(_ event: ScenarioTimedEvent) -> Bool {
        if case .user(let user) = event.action, case .scan = user.kind { return true }
        return false
    }

    /// Schedules one timed line: every repetition, every keystroke and swipe at its own instant.
    func schedule(_ event: ScenarioTimedEvent, on simulation: Simulation) {
        // A repetition fires at time + k·interval for k = 1…count (docs/scenario-format.md); a plain line once.
        let repetitions = event.repetition.map { ($0.interval, 1...max(1, $0.count)) } ?? (.zero, 0...0)
        for index in repetitions.1 {
            let at = event.time + repetitions.0 * index
            switch event.action {
            case .app(let app):
                simulation.schedule([action(app)], at: at, origin: event.time, iteration: max(1, index))
            case .user(let user):
                schedule(user, at: at, on: simulation)
            }
        }
    }

    private func schedule(_ user: ScenarioUserAction, at time: Instant, on simulation: Simulation) {
        switch user.kind {
        case .focus(let id): simulation.schedule(.focus(id), at: time)
        case .activate(let id): simulation.schedule(.activate(id), at: time)
        case .swipe(let direction, let times, let interval):
            for index in 0..<max(1, times) {
                let swipe: UserAction =
                    switch direction {
                    case .next: .swipeNext
                    case .previous: .swipePrevious
                    case .up: .adjust(.up)
                    case .down: .adjust(.down)
                    }
                simulation.schedule(swipe, at: time + interval * index)
            }
        case .type(let text, let interval):
            for (index, character) in text.enumerated() {
                simulation.schedule(.type(character), at: time + interval * index)
            }
        case .submit: simulation.schedule(.submit, at: time)
        case .scan:
            simulation.scheduler.schedule(at: time) { [weak simulation] in simulation?.startScanning() }
        }
    }
}
