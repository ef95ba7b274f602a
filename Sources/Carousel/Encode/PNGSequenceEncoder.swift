import Foundation

/// Writes a plan as a folder of PNGs, one per timeline frame: `frame-00000.png` ...
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
                Result { () throws(PNGError) in try PNGCodec.encode(plan.picture(frame.source), fast: true) }
            }
            for (frame, result) in zip(frames, encoded) {
                let data: Data
                switch result {
                case .success(let bytes): data = bytes
                case .failure(let error): throw .image(error)
                }
                for i in frame.source..<(frame.source + frame.span) {
                    let file = PNGSequenceEncoder.fileName(i)
                    if let reason = PNGSequenceEncoder.write(data, to: folder.appendingPathComponent(file).path) {
                        throw .output(name, "cannot write \(file): \(reason)")
                    }
                    progress(i + 1, plan.timelineFrames)
                }
            }
            start += batch
        }
    }

    /// Writes `data` to a new or truncated file at `path`, with `write(2)` and no flush to the
    /// disk; returns why it failed, or nil. `carousel frames` writes into a temporary folder
    /// that replaces the output whole when every frame is in
    /// (``AtomicOutput/writeFolder(at:isReplaceable:_:)``), as a single output file is renamed
    /// into place without a flush. Foundation's `Data.write(to:)`, used before, flushes each
    /// file on Linux (`fsync`): the sample banners' 288 frames took 0.43 to 0.45 s with it and
    /// 0.25 to 0.27 s without (docs/behaviour.md, *Output targets*).
    static func write(_ data: Data, to path: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return FileErrors.posixReason(errno) }
        var failure: Int32 = 0
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += n
            }
        }
        if close(fd) != 0 && failure == 0 && errno != EINTR { failure = errno }
        return failure == 0 ? nil : FileErrors.posixReason(failure)
    }

    /// The PNG name of timeline frame `i`.
    public static func fileName(_ i: Int) -> String {
        let digits = String(i)
        return "frame-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits + ".png"
    }
}
