import Carousel
import Foundation
import SnapshotTesting

/// A whole animation as a snapshot: its distinct frames and their delays, stored as an
/// APNG reference (a `.png` any browser plays).
public struct AnimationSnapshot: Sendable {
    /// The frames as shown.
    public let frames: [RGBAImage]
    /// Each frame's delay in seconds, as (numerator, denominator).
    public let delays: [(numerator: Int, denominator: Int)]
    /// The APNG bytes.
    public let data: Data
    /// Why the APNG could not be read (it then has no frames), or nil: the decoder's reason,
    /// such as `40 frames of 375x211 are over the limit of 300000 pixels in all`.
    public let problem: String?

    /// The snapshot of an APNG, whose frames (each a whole canvas) may hold `maximumPixels` in
    /// all; an unreadable one has no frames, and says why in ``problem``.
    public init(apng data: Data, maximumPixels: Int = APNGDecoder.maximumPixels) {
        self.data = data
        do {
            let decoded = try APNGDecoder(data, maximumPixels: maximumPixels)
            (frames, delays, problem) = (decoded.frames, decoded.delays, nil)
        } catch {
            (frames, delays, problem) = ([], [], error.reason)
        }
    }

    /// A snapshot of frames and delays with no APNG behind them, for comparisons made in code.
    init(frames: [RGBAImage], delays: [(numerator: Int, denominator: Int)]) {
        (self.frames, self.delays, data, problem) = (frames, delays, Data(), nil)
    }

    /// When frame `k` starts, in seconds.
    func start(of k: Int) -> Double {
        delays.prefix(k).reduce(0) { $0 + Double($1.numerator) / Double($1.denominator) }
    }
}

extension Snapshotting where Value == Carousel, Format == AnimationSnapshot {
    /// The whole animation: every distinct frame and its delay, stored as an APNG under
    /// `__Snapshots__/` and compared frame by frame (pixels under `tolerance`, delays exactly).
    ///
    /// A mismatch names the first frame that differs (in its pixels, its delay, or by being
    /// in one animation only), by its index among the distinct frames (not a timeline frame's
    /// index, as `Carousel.frame(index:)` takes) and the time it is shown from, and writes
    /// that frame's reference, actual and difference PNGs as
    /// ``frame(at:tolerance:fileID:filePath:function:line:column:)`` does.
    ///
    /// Both animations are held in memory, every distinct frame a whole picture:
    /// `maximumPixels` in all each (by default 2^28, 1 GiB of RGBA: 358 distinct frames of
    /// 1125x665, 342 with the dots' footer, 1125x697). Past it the test fails saying so; a
    /// longer animation can raise it.
    ///
    /// A `tolerance` whose `pixels` is not a share, or an animation past `maximumPixels`, fails
    /// the test where the strategy is made, on the run that records the reference too.
    public static func animation(tolerance: FrameTolerance = .exact,
                                 maximumPixels: Int = APNGDecoder.maximumPixels,
                                 fileID: StaticString = #fileID, filePath: StaticString = #filePath,
                                 function: String = #function,
                                 line: UInt = #line, column: UInt = #column) -> Snapshotting {
        let place = ArtifactPlace(filePath: filePath, function: function)
        let diffing = Diffing<AnimationSnapshot>.animation(tolerance: tolerance, maximumPixels: maximumPixels, checkedAtSnapshot: true,
                                                           place: place)
        return Snapshotting(pathExtension: "png", diffing: diffing) { carousel in
            ArtifactCounter.shared.took(place)
            let sink = MemorySink()
            try? carousel.write(with: APNGEncoder(loop: carousel.options.loop), to: sink, name: "<snapshot>")
            let snapshot = AnimationSnapshot(apng: sink.data, maximumPixels: maximumPixels)
            if let problem = tolerance.problem ?? snapshot.problem.map(Diffing<AnimationSnapshot>.unreadable) {
                reportFailure(problem, fileID: fileID, filePath: filePath, line: line, column: column)
            }
            return snapshot
        }
    }
}

extension Diffing where Value == AnimationSnapshot {
    /// Compares two animations: frame count, each delay, each frame's pixels within `tolerance`;
    /// a reference is read with frames of `maximumPixels` in all.
    ///
    /// The first frame that differs in any way is named, with its index, the time it starts
    /// and how it differs (its pixels, its delay, or a frame the other animation lacks; with a
    /// frame count that differs, the counts too), and its images are written as a frame's.
    public static func animation(tolerance: FrameTolerance = .exact, maximumPixels: Int = APNGDecoder.maximumPixels) -> Diffing {
        animation(tolerance: tolerance, maximumPixels: maximumPixels, checkedAtSnapshot: false, place: .unnamed)
    }

    /// ``animation(tolerance:maximumPixels:)``; with `checkedAtSnapshot`, for the strategy,
    /// which has already failed the test for a tolerance that is not a share and for an
    /// animation it could not read back, so the comparison does not say so again. `place`
    /// names the folder of a failure's images under XCTest.
    static func animation(tolerance: FrameTolerance, maximumPixels: Int, checkedAtSnapshot: Bool,
                          place: ArtifactPlace) -> Diffing {
        .diff(
            toData: { $0.data },
            fromData: { AnimationSnapshot(apng: $0, maximumPixels: maximumPixels) },
            diffV2: { reference, actual in
                if let problem = tolerance.problem { return checkedAtSnapshot ? nil : (problem, []) }
                if let problem = actual.problem { return checkedAtSnapshot ? nil : (unreadable(problem), []) }
                guard !reference.frames.isEmpty else {
                    let problem = reference.problem ?? "no frames"
                    return ("Carousel animation does not match its reference: the reference could not be read as an APNG (\(problem))"
                        + (APNGDecoder.isPastLimit(problem) ? "; .animation(maximumPixels:) raises the limit." : "."), [])
                }
                return firstDifference(reference, actual, tolerance: tolerance, place: place)
            }
        )
    }

    /// Why an animation could not be compared: its own APNG could not be read back (`problem`);
    /// frames past the limit say which argument raises it.
    static func unreadable(_ problem: String) -> String {
        APNGDecoder.isPastLimit(problem)
            ? "Carousel animation could not be compared: \(problem); .animation(maximumPixels:) raises the limit."
            : "Carousel animation could not be compared: its APNG could not be read back (\(problem))."
    }

    /// The message and attachments of the first frame of `actual` that differs from
    /// `reference`'s (pixels, delay or presence), or nil when none does.
    private static func firstDifference(_ reference: AnimationSnapshot, _ actual: AnimationSnapshot,
                                        tolerance: FrameTolerance, place: ArtifactPlace) -> (String, [DiffAttachment])? {
        let counts = reference.frames.count == actual.frames.count ? ""
            : " (\(actual.frames.count) frames, the reference has \(reference.frames.count))"
        let none = RGBAImage(width: 0, height: 0)
        func delays(_ a: (numerator: Int, denominator: Int), _ r: (numerator: Int, denominator: Int)) -> String {
            "shows for \(a.numerator)/\(a.denominator) s, the reference for \(r.numerator)/\(r.denominator) s"
        }
        func sameDelay(_ k: Int) -> Bool {
            let r = reference.delays[k], a = actual.delays[k]
            return r.numerator * a.denominator == a.numerator * r.denominator
        }
        // The first frame that differs: in its pixels or its delay, or past the shorter animation.
        let shared = min(reference.frames.count, actual.frames.count)
        var k = 0, comparison: ImageComparison?
        while k < shared {
            let frame = ImageComparison(reference: reference.frames[k], actual: actual.frames[k], tolerance: tolerance)
            if !frame.matches(tolerance) || !sameDelay(k) {
                comparison = frame
                break
            }
            k += 1
        }
        guard k < max(reference.frames.count, actual.frames.count) else { return nil }
        // Every frame before k is the same in both, delays included, so frame k starts at the
        // same time in both.
        let at = String(format: "%.3f", (k < actual.frames.count ? actual : reference).start(of: k))
        let subject = "Carousel animation, distinct frame \(k) (shown from \(at) s),"
        let theirs = k < reference.frames.count ? reference.frames[k] : none
        let ours = k < actual.frames.count ? actual.frames[k] : none
        var what: String
        if let comparison {
            let r = reference.delays[k], a = actual.delays[k]
            what = comparison.matches(tolerance)
                ? "\(subject) differs from its reference\(counts): it \(delays(a, r)); its pixels match."
                : comparison.summary(tolerance, of: subject, context: counts)
            if !sameDelay(k) && !comparison.matches(tolerance) {
                what += " It also \(delays(a, r))."
            }
        } else {
            what = "\(subject) differs from its reference\(counts): "
                + (ours.width == 0 ? "the animation ends before it, the reference has it." : "the reference ends before it.")
        }
        let (paths, attachments) = artifacts(reference: theirs, actual: ours, tolerance: tolerance, place: place)
        return (what + paths, attachments)
    }
}
