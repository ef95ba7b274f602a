import Carousel
import Foundation

/// The outcome of comparing a frame with its reference.
public struct ImageComparison: Sendable {
    /// Pixels that differ beyond the tolerance's channel distance.
    public let differingPixels: Int
    /// All pixels compared.
    public let totalPixels: Int
    /// The largest channel difference, and where.
    public let largest: (difference: Int, x: Int, y: Int)
    /// Why the images cannot be compared at all (different sizes, unreadable reference), if so.
    public var mismatch: String? { mismatch(noun: "frame") }
    /// The two sizes, where they differ (the reference's width 0 where it could not be read).
    private let sizes: (reference: (width: Int, height: Int), actual: (width: Int, height: Int))?
    /// The channel distance ``differingPixels`` were counted beyond: the `channel` of the
    /// tolerance the comparison was made with.
    private let channel: Int

    /// Compares `actual` with `reference`, counting the pixels that differ by more than
    /// `tolerance`'s `channel`. ``matches(_:)`` and ``summary(_:)`` take the share of pixels
    /// allowed from the tolerance they are given; ``summary(_:)`` names the channel counted
    /// with here.
    public init(reference: RGBAImage, actual: RGBAImage, tolerance: FrameTolerance) {
        totalPixels = actual.width * actual.height
        channel = tolerance.channel
        guard reference.width == actual.width, reference.height == actual.height else {
            differingPixels = totalPixels
            largest = (255, 0, 0)
            sizes = ((reference.width, reference.height), (actual.width, actual.height))
            return
        }
        var count = 0
        var worst = (difference: 0, x: 0, y: 0)
        let a = reference.pixels, b = actual.pixels
        for i in stride(from: 0, to: a.count, by: 4) {
            var d = 0
            for c in 0..<4 { d = max(d, abs(Int(a[i + c]) - Int(b[i + c]))) }
            if d > tolerance.channel { count += 1 }
            if d > worst.difference { worst = (d, (i / 4) % actual.width, (i / 4) / actual.width) }
        }
        differingPixels = count
        largest = worst
        sizes = nil
    }

    /// ``mismatch`` with the new image called `noun` (`frame`, `strip`, `image`).
    func mismatch(noun: String) -> String? {
        guard let sizes else { return nil }
        let (r, a) = sizes
        return r.width == 0 ? "the reference could not be read as a PNG (not a PNG, damaged, or past 2^28 pixels)"
            : "the reference is \(r.width)x\(r.height), the \(noun) is \(a.width)x\(a.height)"
    }

    /// Whether the frame matches under `tolerance`; never under a tolerance whose `pixels`
    /// lies outside 0...1 (``summary(_:)`` then says so).
    public func matches(_ tolerance: FrameTolerance) -> Bool {
        tolerance.problem == nil && mismatch == nil && differingPixels <= allowed(tolerance)
    }

    /// The most pixels `tolerance` lets differ: the largest count whose share of
    /// ``totalPixels`` is at most its `pixels`. Worked out from the share each count makes
    /// rather than from `pixels` times the total, which rounds below a whole count the share
    /// names (0.29 of 100 pixels is 28.999999999999996 in floating point, where 29 of 100 is
    /// exactly the share 0.29).
    private func allowed(_ tolerance: FrameTolerance) -> Int {
        guard totalPixels > 0, tolerance.problem == nil else { return 0 }
        let total = Double(totalPixels)
        var count = min(totalPixels, Int((tolerance.pixels * total).rounded(.down)))
        while count < totalPixels && Double(count + 1) / total <= tolerance.pixels { count += 1 }
        while count > 0 && Double(count) / total > tolerance.pixels { count -= 1 }
        return count
    }

    /// One line saying what differs.
    public func summary(_ tolerance: FrameTolerance) -> String {
        summary(tolerance, of: "Carousel frame")
    }

    /// ``summary(_:)`` of `subject` ("Carousel frame", "Carousel strip", or an animation's
    /// frame), the new image called `noun` where the sizes differ, with `context` after "its
    /// reference" (an animation's frame counts), a pixel's place given by `place` (a contact
    /// sheet's names its row's time).
    func summary(_ tolerance: FrameTolerance, of subject: String, noun: String = "frame", context: String = "",
                 place: (Int, Int) -> String = { "(\($0), \($1))" }) -> String {
        if let problem = tolerance.problem { return problem }
        if let mismatch = mismatch(noun: noun) { return "\(subject) does not match its reference\(context): \(mismatch)." }
        let share = totalPixels == 0 ? 0 : 100 * Double(differingPixels) / Double(totalPixels)
        // The count allowed as well as the share: two decimals of a share alone can show a
        // failure at the limit (58 of 57600 pixels, 0.10%, where 0.10% allows 57).
        let allowed = allowed(tolerance)
        return "\(subject) differs from its reference\(context): \(differingPixels) of \(totalPixels) pixels "
            + "(\(Self.percentage(share))%) differ by more than \(channel) levels "
            + "(allowed: \(allowed == 0 ? "none" : "\(allowed), \(String(format: "%.2f", 100 * tolerance.pixels))%")); "
            + "the largest difference is \(largest.difference) levels at \(place(largest.x, largest.y))."
    }

    /// `share` (a percentage) with two decimals, as `<0.01` above 0 and `>99.99` below 100
    /// where two decimals would round it to either end: 2 differing pixels of 57,600 read
    /// `0.00%`, as if none differed.
    static func percentage(_ share: Double) -> String {
        if share > 0 && share < 0.005 { return "<0.01" }
        if share < 100 && share >= 99.995 { return ">99.99" }
        return String(format: "%.2f", share)
    }

    /// A picture of the differences: the reference dimmed to a quarter, differing pixels red
    /// (brighter for larger differences), pixels within tolerance but not equal orange; where
    /// the sizes differ, as large as the larger each way, magenta where only one image has pixels.
    public static func differenceImage(reference: RGBAImage, actual: RGBAImage, tolerance: FrameTolerance) -> RGBAImage {
        let width = max(reference.width, actual.width), height = max(reference.height, actual.height)
        var out = RGBAImage(width: width, height: height, fill: RGBA(r: 255, g: 0, b: 255))
        for y in 0..<height {
            for x in 0..<width {
                guard x < reference.width, y < reference.height, x < actual.width, y < actual.height else { continue }
                let r = reference[x, y], a = actual[x, y]
                let d = max(abs(Int(r.r) - Int(a.r)), abs(Int(r.g) - Int(a.g)), abs(Int(r.b) - Int(a.b)), abs(Int(r.a) - Int(a.a)))
                let gray = UInt8((Int(r.r) * 3 + Int(r.g) * 6 + Int(r.b)) / 40)
                if d > tolerance.channel {
                    out[x, y] = RGBA(r: UInt8(min(255, 128 + d / 2)), g: 0, b: 0)
                } else if d > 0 {
                    out[x, y] = RGBA(r: 255, g: 160, b: 0)
                } else {
                    out[x, y] = RGBA(r: gray, g: gray, b: gray)
                }
            }
        }
        return out
    }
}
