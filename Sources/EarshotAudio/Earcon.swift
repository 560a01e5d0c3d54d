import EarshotCore
import Foundation

/// Generated non-speech sounds: VoiceOver's earcons, a scan tick and a chime for each app sound name.
///
/// Everything is computed from integer frame indices with `sin`, so the same request always gives the same
/// samples. Each sound has a short linear fade at both ends so it never clicks.
public enum Earcon {
    /// Peak amplitude of generated sounds: about a third of full scale, below speech.
    public static let amplitude = 9_000.0

    /// VoiceOver's screen-change earcon: a rising two-tone (660 Hz then 880 Hz), each half of `duration`.
    public static func screenChanged(duration: TimeSpan, rate: Int) -> [Int16] {
        let count = frames(duration, rate: rate)
        let half = count / 2
        var samples = tone(frequency: 660, frames: half, rate: rate, level: 0.8)
        samples += tone(frequency: 880, frames: count - half, rate: rate, level: 0.8)
        return samples
    }

    /// Switch Control's highlight tick: 15 ms at 2 kHz, quiet.
    public static func tick(rate: Int) -> [Int16] {
        tone(frequency: 2_000, frames: rate * 15 / 1_000, rate: rate, level: 0.35)
    }

    /// A chime for an app sound called `name`: two notes picked from the name, so "success" and "error"
    /// sound different but the same name always sounds the same.
    public static func chime(named name: String, duration: TimeSpan, rate: Int) -> [Int16] {
        let count = frames(duration, rate: rate)
        var hash: UInt32 = 2_166_136_261
        for byte in name.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let notes = [523.25, 587.33, 659.25, 783.99, 880.0, 1_046.5]
        let first = notes[Int(hash % UInt32(notes.count))]
        let secondNote = notes[Int((hash >> 8) % UInt32(notes.count))]
        let second = secondNote == first ? first * 1.5 : secondNote
        let split = count * 2 / 5
        return tone(frequency: first, frames: split, rate: rate, level: 0.7, decay: true)
            + tone(frequency: second, frames: count - split, rate: rate, level: 0.7, decay: true)
    }

    /// A sine tone of `frames` frames with 5 ms fades (and an exponential decay, for bell-like chimes).
    public static func tone(
        frequency: Double, frames: Int, rate: Int, level: Double, decay: Bool = false
    ) -> [Int16] {
        guard frames > 0, rate > 0 else { return [] }
        let fade = max(1, min(frames / 2, rate * 5 / 1_000))
        return (0..<frames).map { index in
            let phase = 2 * Double.pi * frequency * Double(index) / Double(rate)
            var gain = level
            if index < fade { gain *= Double(index) / Double(fade) }
            if frames - index <= fade { gain *= Double(frames - index - 1) / Double(fade) }
            if decay { gain *= exp(-3 * Double(index) / Double(frames)) }
            return Int16((sin(phase) * amplitude * gain).rounded())
        }
    }

    /// Whole frames in a span, `floor(span · rate)`.
    static func frames(_ span: TimeSpan, rate: Int) -> Int {
        max(0, Instant(nanoseconds: span.nanoseconds).frame(atRate: rate))
    }
}
