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
    /// Why the APNG could not be read (it then has no frames), or nil.
    public let problem: String?

    /// The snapshot of an APNG, whose frames (each a whole canvas) may hold `maximumPixels` in
    /// all; an unreadable one has no frames, and says why in ``problem``.
    public init(apng data: Data, maximumPixels: Int = APNGDecoder.maximumPixels) {
        self.data = data
        do {
            let decoded = try APNGDecoder(data, maximumPixels: maximumPixels)
            (frames, delays, problem) = (decoded.frames, decoded.delays, nil)
        } catch {
            (frames, delays, problem) = ([], [], error.description)
        }
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
    /// A mismatch names the first differing frame, by index and time, and writes that
    /// frame's reference, actual and difference PNGs as ``frame(at:tolerance:fileID:filePath:line:column:)`` does.
    ///
    /// Both animations are held in memory, every distinct frame a whole picture:
    /// `maximumPixels` in all each (by default 2^28, 1 GiB of RGBA, 342 distinct frames of
    /// 1125x665). Past it the comparison fails saying so; a longer animation can raise it.
    public static func animation(tolerance: FrameTolerance = .exact,
                                 maximumPixels: Int = APNGDecoder.maximumPixels) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .animation(tolerance: tolerance, maximumPixels: maximumPixels)) { carousel in
            let sink = MemorySink()
            try? carousel.write(with: APNGEncoder(loop: carousel.options.loop), to: sink, name: "<snapshot>")
            return AnimationSnapshot(apng: sink.data, maximumPixels: maximumPixels)
        }
    }
}

extension Diffing where Value == AnimationSnapshot {
    /// Compares two animations: frame count, each delay, each frame's pixels within `tolerance`;
    /// a reference is read with frames of `maximumPixels` in all.
    public static func animation(tolerance: FrameTolerance = .exact, maximumPixels: Int = APNGDecoder.maximumPixels) -> Diffing {
        .diff(
            toData: { $0.data },
            fromData: { AnimationSnapshot(apng: $0, maximumPixels: maximumPixels) },
            diffV2: { reference, actual in
                if let problem = tolerance.problem { return (problem, []) }
                guard !reference.frames.isEmpty else {
                    return ("Carousel animation does not match its reference: the reference could not be read as an APNG"
                        + (reference.problem.map { " (\($0))" } ?? "") + ".", [])
                }
                if let problem = actual.problem {
                    return ("Carousel animation could not be compared: its APNG could not be read back (\(problem)).", [])
                }
                if reference.frames.count != actual.frames.count {
                    let shared = min(reference.frames.count, actual.frames.count)
                    let first = (0..<shared).first { reference.frames[$0] != actual.frames[$0] } ?? shared
                    return ("Carousel animation differs from its reference: \(actual.frames.count) frames, the reference has "
                        + "\(reference.frames.count); the first that differs is frame \(first).", [])
                }
                for k in reference.frames.indices {
                    let r = reference.delays[k], a = actual.delays[k]
                    if r.numerator * a.denominator != a.numerator * r.denominator {
                        return ("Carousel animation differs from its reference: frame \(k) (at \(String(format: "%.3f", actual.start(of: k))) s) "
                            + "shows for \(a.numerator)/\(a.denominator) s, the reference for \(r.numerator)/\(r.denominator) s.", [])
                    }
                    let comparison = ImageComparison(reference: reference.frames[k], actual: actual.frames[k], tolerance: tolerance)
                    guard !comparison.matches(tolerance) else { continue }
                    let (paths, attachments) = artifacts(reference: reference.frames[k], actual: actual.frames[k], tolerance: tolerance)
                    let subject = "Carousel animation, frame \(k) (at \(String(format: "%.3f", actual.start(of: k))) s),"
                    return (comparison.summary(tolerance, of: subject) + paths, attachments)
                }
                return nil
            }
        )
    }
}
