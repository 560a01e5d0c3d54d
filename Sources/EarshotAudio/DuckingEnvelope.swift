/// Where media is ducked: the frames during which speech sounds, with short ramps inside each stretch.
///
/// The envelope gives a ducking depth per frame: 0 outside speech, 1 inside it; a media clip plays at
/// `1 - (1 - level) · depth` for its ducking level. Each stretch of speech ramps the media
/// down over its first `ramp` frames and back up over its last, so the ducking never clicks and never reaches
/// outside the speech. Stretches closer than two ramps are merged, so back-to-back utterances do not pump.
public struct DuckingEnvelope: Sendable {
    /// Sorted, disjoint stretches of speech, half-open frame ranges.
    public private(set) var stretches: [Range<Int>]
    /// Frames of each ramp.
    public let ramp: Int

    /// Creates an envelope from the speech ranges (any order, may touch).
    public init(speech: [Range<Int>], ramp: Int) {
        self.ramp = max(1, ramp)
        var merged: [Range<Int>] = []
        for range in speech.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound + 2 * self.ramp {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        stretches = merged
    }

    /// The ducking depth (0 none … 1 full) for each frame of `frames`.
    public func depths(for frames: Range<Int>) -> [Double] {
        var depths = [Double](repeating: 0, count: frames.count)
        var low = 0
        var high = stretches.count
        while low < high {  // the first stretch ending after the block starts
            let mid = (low + high) / 2
            if stretches[mid].upperBound <= frames.lowerBound { low = mid + 1 } else { high = mid }
        }
        var index = low
        while index < stretches.count, stretches[index].lowerBound < frames.upperBound {
            let stretch = stretches[index]
            let from = max(stretch.lowerBound, frames.lowerBound)
            let to = min(stretch.upperBound, frames.upperBound)
            for frame in from..<to {
                let depth = min(
                    1, Double(frame - stretch.lowerBound + 1) / Double(ramp),
                    Double(stretch.upperBound - frame) / Double(ramp))
                depths[frame - frames.lowerBound] = depth
            }
            index += 1
        }
        return depths
    }

    /// The gain of media ducked to `level` at `depth`.
    public static func gain(depth: Double, level: Double) -> Double { 1 - (1 - min(1, max(0, level))) * depth }
}
