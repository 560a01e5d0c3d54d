import CEarshot
import EarshotCore
import Foundation

/// The real synthesizer: espeak-ng 1.51, held in one fixed state on one owner thread.
///
/// espeak-ng is global, not thread-safe and can be initialized only once per process, so there is one
/// instance, ``shared(voicesDirectory:)``. Every espeak-ng call runs on its owner thread (1 MB+ stack,
/// which espeak-ng's synthesis needs); callers on any thread submit work and wait for it. Text is spoken
/// literally (UTF-8, no SSML), so `<`, `&` and quotes are read like any other character.
///
/// espeak-ng carries state from one synthesis to the next that its API cannot reset (wave phase, gain,
/// echo, pitch envelope), so the same phrase lasted up to 20 % longer or shorter depending on what was
/// said before. This process therefore never synthesizes: it holds espeak-ng in one fixed state
/// (initialized, the standard voice selected once). Worker processes forked from that state, one per voice,
/// select their voice once and copy the memory espeak-ng's state lives in; before each phrase a worker
/// writes that copy back, sets the phrase's parameters and streams its chunks back as they come. The same
/// text with the same voice gives the same samples whatever was synthesized before, in any order, at about
/// the cost of synthesizing in this process. Up to ``concurrency`` slots of workers run, one per phrase
/// being synthesized at the same time, so callers on several threads synthesize in parallel.
///
/// There is no `deinit` that shuts espeak-ng down: the instance lives as long as the process, because
/// espeak-ng cannot be initialized again and its synchronous-mode `espeak_Terminate` deadlocks on a
/// second call.
public final class EspeakSynthesizer: Synthesizer, @unchecked Sendable {
    /// Frames per second (22050 for espeak-ng's voices).
    public let sampleRate: Int
    /// The espeak-ng data folder in use (the system data, or a private folder with custom variants).
    public let dataPath: String
    /// Custom variants loaded from `Voices/variants/`, by name.
    public let customVariants: [String]

    /// The espeak-ng library's version, for example `1.51`.
    public let engineVersion: String
    /// A fingerprint of the custom variants in the data folder (names and contents); empty without any.
    public var variantsFingerprint: String { dataFolder.variantsFingerprint }

    private let owner: OwnerThread
    private let pool = SynthesisSlots(limit: ProcessInfo.processInfo.activeProcessorCount)
    private let dataFolder: EspeakDataFolder
    /// Every name espeak-ng's voice list answers to, lower-cased (voice names, identifiers, languages), once
    /// listed (``knownVoiceNames()``).
    private var listedVoiceNames: Set<String>?
    /// Voice names asked about by ``isLinked(_:)``, with the answer.
    private var linkedVoices: [String: Bool] = [:]
    private let listLock = NSLock()

    private static let lock = NSLock()
    nonisolated(unsafe) private static var instance: EspeakSynthesizer?

    /// The process's synthesizer, initializing espeak-ng on the first call.
    ///
    /// `voicesDirectory` is a Voices folder whose `variants/` files become espeak-ng variants; `nil`
    /// locates one the usual way (``VoiceLibrary/locateDirectory(explicit:)``). espeak-ng cannot be
    /// re-initialized, so a later call asking for *different* custom variants throws
    /// ``EspeakError/alreadyInitialized(requested:current:)``; one with the same variants (or none)
    /// returns the running instance.
    public static func shared(voicesDirectory: String? = nil) throws(EspeakError) -> EspeakSynthesizer {
        lock.lock()
        defer { lock.unlock() }
        let directory = voicesDirectory ?? VoiceLibrary.locateDirectory(explicit: nil)
        if let instance {
            let variants = EspeakDataFolder.customVariantFiles(in: directory)
            let fingerprint = EspeakDataFolder.fingerprint(
                of: variants, systemPath: EspeakDataFolder.systemDataPath() ?? "")
            if variants.isEmpty || fingerprint == instance.dataFolder.variantsFingerprint { return instance }
            throw .alreadyInitialized(requested: directory ?? "(none)", current: instance.dataPath)
        }
        try EspeakLibrary.open()
        let created = try EspeakSynthesizer(
            dataFolder: try EspeakDataFolder.prepare(
                voicesDirectory: directory, linkingVoice: VoiceProfile.standard.espeakVoice, keeping: true))
        instance = created
        return created
    }

    private init(dataFolder: EspeakDataFolder) throws(EspeakError) {
        self.dataFolder = dataFolder
        self.dataPath = dataFolder.path
        self.customVariants = dataFolder.customVariants
        owner = OwnerThread(name: "earshot.espeak", stackSize: 4 << 20)
        let path = dataFolder.path
        let result: (status: Int32, rate: Int32) = owner.perform {
            var rate: Int32 = 0
            let status = earshot_espeak_initialize(path, &rate)
            return (status, rate)
        }
        guard result.status == Int32(EARSHOT_ESPEAK_OK) else {
            throw .initializationFailed(
                dataPath: path, code: Int(result.status), message: Self.message(for: result.status))
        }
        sampleRate = Int(result.rate)
        engineVersion = DeferredSynthesizer.libraryVersion()
        // espeak-ng reads every voice file to list them (about 730 file status calls and 360 opens, 3.7 ms).
        // Selecting the standard voice by name lists them, unless its file is linked under its name in the data
        // folder (``EspeakDataFolder/linkVoiceFile``): then the list waits until a profile names a voice whose file
        // cannot be linked (``isLinked(_:)``). Without the link it is listed here first, so that selecting does not
        // list the voices again.
        if !dataFolder.hasLinkedVoice(VoiceProfile.standard.espeakVoice) {
            listedVoiceNames = owner.perform { Self.listVoiceNames() }
        }
        // The data folder goes while the workers are torn down at exit (its own handler then finds it gone).
        earshot_espeak_set_exit_work { EspeakDataFolder.removeCreatedFolders() }
        // The one state every phrase starts from: the standard voice selected, so its dictionary is loaded.
        let prepared = owner.perform { earshot_espeak_prepare_isolation(VoiceProfile.standard.espeakVoice) }
        guard prepared == Int32(EARSHOT_ESPEAK_OK) else {
            throw .initializationFailed(dataPath: path, code: Int(prepared), message: Self.message(for: prepared))
        }
        earshot_alsa_silence_errors()
    }

    /// Speaks `text` literally with `voice`, stopping after `frameLimit` frames when given.
    public func synthesize(_ text: String, voice: VoiceProfile, frameLimit: Int?) throws -> SynthesizedSpeech {
        var samples: [Int16] = []
        var words: [WordBoundary] = []
        let stopped = try synthesize(text, voice: voice, frameLimit: frameLimit, streaming: false) { chunk, events in
            // Most phrases come in one chunk: taking its array as it is spares a copy of the audio.
            if samples.isEmpty { samples = Array(chunk) } else { samples.append(contentsOf: chunk) }
            for event in events where event.kind == .word {
                words.append(WordBoundary(frame: event.frame, textRange: event.textRange))
            }
            return true
        }
        words.sort { $0.frame < $1.frame }
        return SynthesizedSpeech(samples: samples, sampleRate: sampleRate, words: words, stoppedEarly: stopped)
    }

    /// Speaks `text` chunk by chunk: `onChunk` receives each block of audio with the events inside it, on the
    /// calling thread, and returns `false` to stop synthesis at once.
    ///
    /// `streaming` (playback) hands over the first block as soon as it is made and later ones about every 0.7 s
    /// of audio. Without it (a caller that only wants the whole phrase) blocks are as large as the helper
    /// process's messages allow, about 2 s, so the calling thread wakes about once per phrase; the samples and
    /// events are the same either way.
    ///
    /// Returns true when synthesis stopped before the end of the text (frame limit or `onChunk`).
    /// `onChunk` must not call back into this synthesizer's other methods from another thread.
    @discardableResult
    public func synthesize(
        _ text: String, voice: VoiceProfile, frameLimit: Int?, streaming: Bool = true,
        onChunk: (ArraySlice<Int16>, [SpeechEvent]) -> Bool
    ) throws(EspeakError) -> Bool {
        try checkRanges(voice)
        try checkNames(voice)
        let scalarCount = text.unicodeScalars.count
        // A NUL would end the C string early; a space keeps every later offset where it was.
        let literal = text.contains("\0") ? text.replacingOccurrences(of: "\0", with: " ") : text
        let status = withoutActuallyEscaping(onChunk) { escapable -> (status: Int32, stopped: Bool) in
            let sink = ChunkSink(scalarCount: scalarCount, onChunk: escapable)
            return withExtendedLifetime(sink) {
                isolated(
                    Self.voiceName(voice), Self.parameters(voice), literal,
                    frameLimit: frameLimit.map { max(0, $0) } ?? -1, streaming: streaming,
                    context: Unmanaged.passUnretained(sink).toOpaque())
            }
        }
        try check(status.status, voice, operation: "synthesize")
        return status.stopped
    }

    /// Synthesizes through a free slot: the owner thread only starts the slot's worker for the voice (when none
    /// runs); the check for it and the socket I/O run on the calling thread, so several callers synthesize at once. A worker that died
    /// (killed from outside, or since the last phrase) is replaced twice, resuming after the chunks the sink
    /// already has. Returns the shim's status and whether synthesis stopped early.
    private func isolated(
        _ name: String, _ parameters: earshot_voice_parameters, _ text: String, frameLimit: Int, streaming: Bool,
        context: UnsafeMutableRawPointer?
    ) -> (status: Int32, stopped: Bool) {
        pool.withSlot { slot in
            var parameters = parameters
            var stopped: Int32 = 0
            var delivered: Int64 = 0
            var status = Int32(EARSHOT_ISOLATION_FAILED)
            for _ in 0..<3 where status == Int32(EARSHOT_ISOLATION_FAILED) {
                // Only starting a worker needs the owner thread: asking it each phrase would cost two thread
                // switches per phrase.
                let ready =
                    earshot_espeak_has_worker(slot, name) != 0
                    || owner.perform({ earshot_espeak_start_worker(slot, name) }) == Int32(EARSHOT_ESPEAK_OK)
                guard ready else { continue }
                status = earshot_espeak_synthesize_in_worker(
                    slot, name, &parameters, text, Int64(frameLimit), streaming ? 1 : 0, chunkCallback, context,
                    &stopped, &delivered)
            }
            return (status, stopped != 0)
        }
    }

    /// How many phrases may be synthesized at the same time, each in its own slot (default: the cores this
    /// process may use). Calls beyond it wait for a free slot.
    public var concurrency: Int {
        get { pool.concurrency }
        set { pool.concurrency = newValue }
    }

    /// While a synthesis is under way on the calling thread (asked from its chunk callback), the process id of the
    /// worker it waits for; 0 elsewhere. Tests use it to see where that worker may run.
    static var workerOfCallingThread: Int32 { earshot_espeak_current_worker() }

    /// The most phrases ever synthesized at the same time in this process.
    var peakConcurrentSyntheses: Int { pool.peakInUse }

    /// How many times ``validate(_:)`` tried a profile of this name in a worker.
    func validationTrials(of profile: String) -> Int { trialLock.withLock { trials[profile, default: 0] } }
    private let trialLock = NSLock()
    private var trials: [String: Int] = [:]

    /// The name espeak-ng selects a profile's voice by: `en-us`, or `en-us+f3` with a variant.
    private static func voiceName(_ profile: VoiceProfile) -> String {
        profile.variant.map { "\(profile.espeakVoice)+\($0)" } ?? profile.espeakVoice
    }

    private static func parameters(_ profile: VoiceProfile) -> earshot_voice_parameters {
        earshot_voice_parameters(
            rate: Int32(profile.rate), pitch: Int32(profile.pitch), volume: Int32(profile.volume),
            word_gap: Int32(profile.wordGap))
    }

    /// Checks `profile` against the installed espeak-ng: the voice and variant exist, values in range.
    ///
    /// espeak-ng silently ignores an unknown variant, so it is looked up in the data folder here. Any other voice
    /// is then tried in a worker (selected with the profile's values, nothing said), except the standard voice
    /// every worker starts with: a worker speaking it selects no voice, so a trial could find nothing the checks
    /// above did not, and skipping it saves a worker's start and a round trip before a run's first phrase.
    public func validate(_ profile: VoiceProfile) throws(EspeakError) {
        try checkRanges(profile)
        try checkNames(profile)
        if Self.voiceName(profile) == VoiceProfile.standard.espeakVoice { return }
        trialLock.withLock { trials[profile.name, default: 0] += 1 }
        try check(
            selectInChild(Self.voiceName(profile), Self.parameters(profile)), profile,
            operation: "select voice \(Self.voiceName(profile))")
    }

    /// Selects `name` in a child with nothing to say, so this process's espeak-ng state stays as it is, and
    /// returns the shim's status.
    private func selectInChild(_ name: String, _ parameters: earshot_voice_parameters) -> Int32 {
        isolated(name, parameters, "", frameLimit: 0, streaming: false, context: nil).status
    }

    /// Checks the profile's voice and variant names before espeak-ng sees them (``EspeakName``): the
    /// voice must be in espeak-ng's voice list and the variant in the data folder's variants.
    private func checkNames(_ profile: VoiceProfile) throws(EspeakError) {
        if let problem = EspeakName.problem(with: profile.espeakVoice, as: .voice) {
            throw .invalidName(name: profile.espeakVoice, kind: .voice, profile: profile.name, problem: problem)
        }
        // The standard voice was selected when espeak-ng started: it exists, with no list to look it up in. Another
        // voice whose file could be linked exists too (it is the file espeak-ng's list would lead to).
        guard
            profile.espeakVoice == VoiceProfile.standard.espeakVoice || isLinked(profile.espeakVoice)
                || knownVoiceNames().contains(profile.espeakVoice.lowercased())
        else {
            throw .unknownVoice(voice: profile.espeakVoice, profile: profile.name)
        }
        guard let variant = profile.variant else { return }
        if let problem = EspeakName.problem(with: variant, as: .variant) {
            throw .invalidName(name: variant, kind: .variant, profile: profile.name, problem: problem)
        }
        if !dataFolder.hasVariant(variant) {
            throw .unknownVariant(variant: variant, profile: profile.name, known: dataFolder.knownVariants())
        }
    }

    /// Hands `name` to the shim's voice selection without Earshot's name checks (in a child, like every
    /// selection) and returns its status; for testing the shim's own length and path checks.
    func setVoiceWithoutChecks(_ name: String) -> Int32 {
        selectInChild(name, Self.parameters(VoiceProfile.standard))
    }

    /// Whether `voice` has its file linked in the private data folder, linking it the first time it is asked about
    /// (before any worker for it starts, so the worker selects it from that file without listing every voice: 3.7 ms
    /// saved in every run whose narration is spoken by the narrator's British voice). Answers are kept: a name
    /// without one file to link is looked up in espeak-ng's voice list, as before.
    private func isLinked(_ voice: String) -> Bool {
        listLock.withLock {
            if let known = linkedVoices[voice] { return known }
            let linked = dataFolder.linkVoice(voice)
            linkedVoices[voice] = linked
            return linked
        }
    }

    /// espeak-ng's voice list as lower-cased names, listed on the owner thread the first time it is needed. A worker
    /// for another voice is started only after its profile was checked against the list, so it inherits the list and
    /// selects its voice without listing again.
    private func knownVoiceNames() -> Set<String> {
        listLock.withLock {
            if let listedVoiceNames { return listedVoiceNames }
            let names = owner.perform { Self.listVoiceNames() }
            listedVoiceNames = names
            return names
        }
    }

    /// espeak-ng's voice list as lower-cased names, listed in this process. Owner thread only.
    private static func listVoiceNames() -> Set<String> {
        var buffer = [CChar](repeating: 0, count: 16_384)
        while true {
            let needed = earshot_espeak_voice_names(&buffer, buffer.count)
            if needed < buffer.count { break }
            buffer = [CChar](repeating: 0, count: needed + 1)
        }
        return names(in: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    }

    /// The names in `text`: one per line, lower-cased.
    static func names(in text: [UInt8]) -> Set<String> {
        Set(String(decoding: text, as: UTF8.self).split(separator: "\n").map { $0.lowercased() })
    }

    private func checkRanges(_ profile: VoiceProfile) throws(EspeakError) {
        let checks: [(String, Int, ClosedRange<Int>)] = [
            ("rate", profile.rate, VoiceProfile.minimumRate...VoiceProfile.maximumRate),
            ("pitch", profile.pitch, 0...100), ("volume", profile.volume, 0...200),
            ("wordgap", profile.wordGap, 0...1000),
        ]
        for (name, value, allowed) in checks where !allowed.contains(value) {
            throw .valueOutOfRange(name: name, value: value, allowed: allowed, profile: profile.name)
        }
    }

    /// Turns a child's status into the error it means. Punctuation stays at espeak-ng's default, none:
    /// 1.51 answers EINVAL to setting it in synchronous mode.
    private func check(_ status: Int32, _ profile: VoiceProfile, operation: String) throws(EspeakError) {
        if status == Int32(EARSHOT_ESPEAK_VOICE_NOT_FOUND) {
            throw .unknownVoice(voice: profile.espeakVoice, profile: profile.name)
        }
        if status != Int32(EARSHOT_ESPEAK_OK) {
            throw .synthesisFailed(operation: operation, code: Int(status), message: Self.message(for: status))
        }
    }

    private static func message(for status: Int32) -> String {
        if status == Int32(EARSHOT_ISOLATION_FAILED) {
            return "the process that synthesizes each phrase could not be started, or it died"
        }
        var buffer = [CChar](repeating: 0, count: 512)
        earshot_espeak_status_message(status, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
