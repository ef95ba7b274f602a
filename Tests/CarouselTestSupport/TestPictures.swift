import Carousel

/// A banner-like picture: `steps` steps of a dark gradient a level apart in each channel
/// (the background), each `stepPixels` pixels, and `scattered` pixels of text
/// anti-aliased onto it (a step blended with white, blue or red by a random weight).
/// Returns the picture and its steps.
public func concentratedPicture(steps: Int, stepPixels: Int, scattered: Int, seed: UInt64 = 17) -> (RGBAImage, [RGBA]) {
    let colours = (0..<steps).map { (k: Int) -> RGBA in RGBA(r: UInt8(20 + k), g: UInt8(22 + k), b: UInt8(30 + k)) }
    var pixels: [RGBA] = colours.flatMap { repeatElement($0, count: stepPixels) }
    var random = SeededRandom(seed: seed)
    let inks = [RGBA(r: 255, g: 255, b: 255), RGBA(r: 10, g: 132, b: 255), RGBA(r: 255, g: 69, b: 58)]
    for _ in 0..<scattered {
        let v = random.next() >> 32
        let step = colours[Int(v % UInt64(steps))], alpha = Int((v >> 8) % 256), ink = inks[Int((v >> 16) % 3)]
        func blend(_ c: UInt8, _ i: UInt8) -> UInt8 { UInt8((Int(c) * (255 - alpha) + Int(i) * alpha + 127) / 255) }
        pixels.append(RGBA(r: blend(step.r, ink.r), g: blend(step.g, ink.g), b: blend(step.b, ink.b)))
    }
    let width = 256, height = (pixels.count + width - 1) / width
    pixels += repeatElement(colours[0], count: width * height - pixels.count)
    return (RGBAImage(width: width, height: height, pixels: pixels.flatMap { [$0.r, $0.g, $0.b, $0.a] }), colours)
}
