import EarshotAudio
import EarshotCore
import EarshotScript
import Foundation

/// One piece of a rendered file, in order: a spoken label, a scenario run, or a pause.
public enum RenderItem {
    /// A label spoken in the default voice ("Before."), followed by a short pause.
    case label(String)
    /// A scenario run; `name` tells segments apart ("before", "search before").
    case run(name: String, ScenarioRun)
    /// Silence.
    case pause(TimeSpan)
}

/// A scenario run as placed in a rendered file.
public struct RenderSegment {
    /// Its name ("before", "after", "search before"; the script's name for a plain render).
    public var name: String
    /// The run.
    public var run: ScenarioRun
    /// Where the run's instant zero sits in the file.
    public var offset: TimeSpan
}

/// What a render wrote: the files, the runs placed in it and the transcript. The review page takes this.
public struct RenderedAudio {
    /// The WAV file.
    public var wavPath: String
    /// The WebVTT transcript next to it.
    public var vttPath: String
    /// The JSON Lines timeline next to it.
    public var jsonLinesPath: String
    /// The runs, with their offsets in the file.
    public var segments: [RenderSegment]
    /// The labels spoken, with their offsets.
    public var labels: [(text: String, offset: TimeSpan)]
    /// The transcript written.
    public var transcript: WebVTT
    /// Frames per second.
    public var sampleRate: Int
    /// Frames written.
    public var frameCount: Int
    /// The WAV's fingerprint, written into every companion file (``RenderStamp``).
    public var fingerprint: AudioFingerprint
    /// The files not yet moved into place (empty once published): the WAV, the transcript, the timeline.
    public var staged: [StagedFile] = []

    /// How long the file plays.
    public var duration: TimeSpan { TimeSpan.frames(frameCount, rate: sampleRate) }
}

/// The mix plan: renders runs to a WAV with its WebVTT transcript and JSON Lines timeline, what `render`,
/// `compare` and `samples` share.
///
/// 1. The mix is planned: labels, runs and pauses laid end to end (``RenderItem``).
/// 2. The WAV streams to a hidden temporary block by block (bounded memory), with a progress line on a
///    terminal; its fingerprint is taken on the way.
/// 3. The transcript and timeline, each naming the WAV's fingerprint (``RenderStamp``), are staged in hidden
///    temporaries beside it; `render` and `compare` stage their review page too.
/// 4. All of them are moved into place together (``StagedFile/commitTogether(_:)``): any failure before that
///    leaves none of them, Ctrl-C or SIGTERM waits for the last rename, and a set split by SIGKILL is reported
///    by `earshot verify`.
public enum RenderOutputs {
    /// The pause after a spoken label.
    public static let labelPause = TimeSpan.milliseconds(400)

    /// `out.vtt` for `out.wav` (the extension replaced, or appended when there is none).
    public static func companion(of wavPath: String, extension newExtension: String) -> String {
        PathText.replacingExtension(of: wavPath, with: newExtension)
    }

    /// The voices a mix speaks in besides the runs' own.
    public struct Voices {
        /// The voice labels ("Before.") are spoken in.
        public var label: VoiceProfile
        /// The voice media narration is spoken in; asked for only when some run has media to narrate
        /// (resolving it may switch the synthesizer's voice).
        public var narrator: () -> VoiceProfile

        /// Creates the voices.
        public init(label: VoiceProfile, narrator: @escaping () -> VoiceProfile) {
            self.label = label
            self.narrator = narrator
        }
    }

    /// Mixes `items` into `wavPath` and stages the transcript and timeline beside it; nothing is in place until
    /// ``RenderedAudio/publish(with:)``. `soundsDirectory` holds the app sounds; `progress` hears of each mixed
    /// block (frames done, frames in all).
    ///
    /// - Throws: `OutputFileError`, synthesis errors; no output is left behind then.
    public static func stage(
        _ items: [RenderItem], to wavPath: String, speech library: SpeechLibrary, voices: Voices,
        soundsDirectory: String?, progress: @escaping (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws -> RenderedAudio {
        let rate = library.sampleRate
        let mixer = TimelineMixer(rate: rate)
        // Resolving the narrator switches espeak-ng's voice: only done when some run has media to narrate.
        let hasMedia = items.contains { item in
            guard case .run(_, let run) = item else { return false }
            return run.timeline.events.contains { if case .media = $0.kind { return true } else { return false } }
        }
        let narrator = hasMedia ? voices.narrator() : voices.label
        let labelVoice = voices.label
        var cursor = 0
        var segments: [RenderSegment] = []
        var labels: [(text: String, offset: TimeSpan)] = []
        var cues: [WebVTT.Cue] = []
        for item in items {
            let offset = Instant.ofFrame(cursor, rate: rate)
            switch item {
            case .label(let text):
                let frames = try mixer.addSpeech(text, voice: labelVoice, at: cursor, speech: library)
                labels.append((text, TimeSpan(nanoseconds: offset.nanoseconds)))
                cues.append(WebVTT.Cue(start: offset, end: Instant.ofFrame(cursor + frames, rate: rate), text: text))
                cursor += frames + frameCount(labelPause, rate: rate)
            case .run(let name, let run):
                let options = TimelineMixOptions(
                    profile: run.profile, narratorVoice: narrator, soundsDirectory: soundsDirectory)
                mixer.add(run.timeline, at: cursor, speech: library, options: options)
                let shift = TimeSpan(nanoseconds: offset.nanoseconds)
                segments.append(RenderSegment(name: name, run: run, offset: shift))
                cues += WebVTT.cues(for: run.timeline, offset: shift)
                cursor = mixer.length
            case .pause(let span):
                cursor += frameCount(span, rate: rate)
            }
            mixer.extend(to: cursor)
        }
        let transcript = WebVTT(cues: cues)
        let vttPath = companion(of: wavPath, extension: "vtt")
        let jsonPath = companion(of: wavPath, extension: "jsonl")
        let writer = try WAVWriter(path: wavPath, sampleRate: rate)
        do {
            try mixer.render(to: writer, progress: progress)
        } catch {
            writer.cancel()
            throw error
        }
        let fingerprint = writer.fingerprint
        let wav = try writer.stage()
        let vtt = try StagedFile(
            path: vttPath, text: RenderStamp.stamp(transcript: transcript.document, with: fingerprint))
        let json = try StagedFile(
            path: jsonPath,
            text: RenderStamp.timelineLine(for: fingerprint, sampleRate: rate)
                + jsonLines(segments: segments, labels: labels))
        return RenderedAudio(
            wavPath: wavPath, vttPath: vttPath, jsonLinesPath: jsonPath, segments: segments, labels: labels,
            transcript: transcript, sampleRate: rate, frameCount: writer.frameCount, fingerprint: fingerprint,
            staged: [wav, vtt, json])
    }

    /// One run: its timeline's JSON Lines as they are. Several: a `segment` line before each run's lines, giving
    /// its name, script and offset in the file (each run's times stay relative to its own start).
    static func jsonLines(segments: [RenderSegment], labels: [(text: String, offset: TimeSpan)]) -> String {
        if segments.count == 1, labels.isEmpty { return segments[0].run.timeline.jsonLines() }
        var text = ""
        for segment in segments {
            let header: JSONValue = .object([
                ("name", .string(segment.name)), ("offset_ms", .int(segment.offset.milliseconds)),
                ("profile", .string(segment.run.profile.label)), ("script", .string(segment.run.document.path)),
                ("type", "segment"), ("voice", .string(segment.run.voice.name)),
            ])
            text += header.compact() + "\n"
            text += segment.run.timeline.jsonLines()
        }
        return text
    }

    static func frameCount(_ span: TimeSpan, rate: Int) -> Int {
        Instant(nanoseconds: span.nanoseconds).frame(atRate: rate)
    }
}

extension RenderedAudio {
    /// Where the WAV's bytes are while it is staged (its hidden temporary), else its path.
    public var wavContentsPath: String {
        staged.first { $0.path == wavPath }?.contentsPath ?? wavPath
    }

    /// Moves the staged files, and `more` (a review page), into place together; afterwards nothing is staged.
    ///
    /// - Throws: `OutputFileError`; see ``StagedFile/commitTogether(_:)``.
    public mutating func publish(with more: [StagedFile] = []) throws {
        let files = staged + more
        staged = []
        try StagedFile.commitTogether(files)
    }
}
