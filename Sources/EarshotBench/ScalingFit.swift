import Foundation

/// How a cost grows with a size: the exponent k of cost ≈ c·sizeᵏ, fitted by least squares on the log-log
/// points (1 is linear, 2 quadratic).
public enum ScalingFit {
    /// The fitted exponent of `points` after taking `baseline` (the cost of an empty run: start-up) off each
    /// cost; nil with fewer than two distinct sizes. Costs at or below the baseline count as `floor` above it,
    /// so a point lost in start-up noise flattens the fit instead of breaking it.
    public static func exponent(_ points: [(size: Int, cost: Double)], baseline: Double = 0, floor: Double = 1e-3)
        -> Double?
    {
        let logs = points.filter { $0.size > 0 }.map { point in
            (x: log(Double(point.size)), y: log(max(point.cost - baseline, floor)))
        }
        guard Set(logs.map(\.x)).count >= 2 else { return nil }
        let count = Double(logs.count)
        let meanX = logs.map(\.x).reduce(0, +) / count
        let meanY = logs.map(\.y).reduce(0, +) / count
        let covariance = logs.map { ($0.x - meanX) * ($0.y - meanY) }.reduce(0, +)
        let variance = logs.map { ($0.x - meanX) * ($0.x - meanX) }.reduce(0, +)
        return covariance / variance
    }

    /// The largest exponent a workload may show and still count as linear: measured costs of a linear
    /// workload come out between about 0.8 and 1.2 (start-up and caches bend small sizes).
    public static let linearLimit = 1.3
}
