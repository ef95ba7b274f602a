#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a plan as a folder of PNGs, one per timeline frame: `frame-00000.png` ...
/// (``fileName(_:of:)``).
///
/// A planned frame that stands for several timeline frames is encoded once and its
/// bytes written under each of their names; planned frames are encoded in parallel, a
/// batch at a time, and written in order.
public struct PNGSequenceEncoder: Sendable {
    /// An encoder.
    public init() {}

    /// Writes every timeline frame of `plan` into `folder` (which must exist); `name` is used in errors.
    /// `progress` gets (frames written, total).
    public func write(_ plan: FramePlan, to folder: URL, name: String,
                      progress: (Int, Int) -> Void = { _, _ in }) throws(CarouselError) {
        let batch = 8 * max(1, ProcessInfo.processInfo.activeProcessorCount)
        var start = 0
        while start < plan.frames.count {
            let frames = Array(plan.frames[start..<min(plan.frames.count, start + batch)])
            let encoded = frames.parallelMap { frame in
                Result { () throws(PNGError) in
                    try PNGCodec.encode(plan.picture(frame.source), name: "\(name)/\(PNGSequenceEncoder.fileName(frame.source, of: plan.timelineFrames))",
                                        fast: true)
                }
            }
            for (frame, result) in zip(frames, encoded) {
                let data: Data
                switch result {
                case .success(let bytes): data = bytes
                case .failure(let error): throw .image(error)
                }
                for i in frame.source..<(frame.source + frame.span) {
                    let file = PNGSequenceEncoder.fileName(i, of: plan.timelineFrames)
                    if let reason = AtomicOutput.writeInFolder(data, to: folder.appendingPathComponent(file).path) {
                        throw .output(name, "cannot write \(file): \(reason)")
                    }
                    progress(i + 1, plan.timelineFrames)
                }
            }
            start += batch
        }
    }

    /// The PNG name of timeline frame `i` in a folder of at most 100,000 frames:
    /// `frame-00000.png` ... `frame-99999.png`. ``fileName(_:of:)`` names the frames of a
    /// folder of any size.
    public static func fileName(_ i: Int) -> String {
        fileName(i, of: 0)
    }

    /// The PNG name of timeline frame `i` in a folder of `frameCount` frames: `frame-`, the
    /// index written with as many digits as the folder's last index takes, and at least five,
    /// and `.png`. Every name of a folder is as long as the others, so the names sort in
    /// frame order: `frame-00000.png` ... `frame-99999.png`, and in a folder of more than
    /// 100,000 frames `frame-000000.png` .... A `frameCount` below 1 counts as 1.
    public static func fileName(_ i: Int, of frameCount: Int) -> String {
        let digits = String(i)
        let width = max(5, String(frameCount > 1 ? frameCount - 1 : 0).count)
        return "frame-" + String(repeating: "0", count: max(0, width - digits.count)) + digits + ".png"
    }
}
