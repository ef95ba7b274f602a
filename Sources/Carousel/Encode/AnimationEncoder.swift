/// An animated format: writes a ``FramePlan`` to a ``ByteSink``.
///
/// An encoder knows frames, delays and the plan's layer and overlay boxes, and
/// nothing of carousels. A new format is a new conformer beside ``GIFEncoder``.
public protocol AnimationEncoder: Sendable {
    /// Encodes every frame of `plan` on `sink`; `name` is used in errors. `progress` gets
    /// (timeline frames done, total).
    func encode(_ plan: FramePlan, to sink: any ByteSink, name: String,
                progress: (Int, Int) -> Void) throws(CarouselError)
}
