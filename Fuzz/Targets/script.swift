/// libFuzzer target: script parsing and timeline expansion (gestures included), then
/// the state of every frame at 1 fps. Must parse or throw `CarouselError`; never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    guard let script = try? Script(parsing: text, source: "fuzz") else { return 0 }
    for (pages, pitch) in [(1, 7), (5, 343)] {
        guard let timeline = try? Timeline(script: script, count: pages, pitch: pitch, hold: 0.5,
                                           moveDuration: 0.3, easing: .easeInOut) else { continue }
        let geometry = try? Geometry(count: pages, width: 375, height: 10, itemWidth: pitch, spacing: 0,
                                     alignment: .center, clones: .auto)
        for state in timeline.frames(fps: 1) {
            if let geometry { _ = geometry.stripX(forX0: geometry.x0(at: state.position)) }
        }
    }
    return 0
}
