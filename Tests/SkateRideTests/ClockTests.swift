import Testing
@testable import SkateRide

/// A wall clock the test moves by hand.
final class ManualWall: WallTimeSource {
    var value = 100.0
    func seconds() -> Double { value }
}

@Suite struct ClockTests {
    @Test func virtualClockAdvancesOnlyForward() {
        let c = VirtualClock(start: 10)
        c.advance(by: 2.5)
        #expect(c.now == 12.5)
        c.advance(to: 20)
        #expect(c.now == 20)
        c.advance(to: 5)        // earlier: ignored
        c.advance(by: -3)       // negative: ignored
        c.advance(by: .nan)
        #expect(c.now == 20)
    }

    @Test func pacedClockMapsWallToRideTime() {
        let wall = ManualWall()
        let c = PacedClock(wall: wall, start: 0, speed: 2)
        wall.value += 3
        #expect(c.now == 6)
        c.setSpeed(10)          // no jump at the change
        #expect(c.now == 6)
        wall.value += 1
        #expect(c.now == 16)
    }

    @Test func speedIsClampedAndSteps() {
        let wall = ManualWall()
        let c = PacedClock(wall: wall, speed: 500)
        #expect(c.speed == 60)
        c.faster()
        #expect(c.speed == 60)
        c.setSpeed(0.01)
        #expect(c.speed == 0.25)
        c.slower()
        #expect(c.speed == 0.25)
        var seen: [Double] = [c.speed]
        for _ in 0..<10 { c.faster(); seen.append(c.speed) }
        #expect(Array(seen.prefix(9)) == PacedClock.speedSteps)
        c.setSpeed(3)           // between steps
        c.slower()
        #expect(c.speed == 2)
        c.setSpeed(3)
        c.faster()
        #expect(c.speed == 5)
    }

    @Test func pauseResumeAndSingleStep() {
        let wall = ManualWall()
        let c = PacedClock(wall: wall, speed: 1)
        wall.value += 5
        c.pause()
        #expect(c.isPaused)
        wall.value += 100
        #expect(c.now == 5)
        #expect(c.wallDelay(until: 6) == .infinity)
        c.step()
        #expect(abs(c.now - 5.1) < 1e-12)
        c.step(by: 1)
        #expect(abs(c.now - 6.1) < 1e-12)
        c.resume()
        wall.value += 2
        #expect(abs(c.now - 8.1) < 1e-12)
        #expect(abs(c.wallDelay(until: 10.1) - 2) < 1e-12)
        #expect(c.wallDelay(until: 1) == 0)
    }

    @Test func monotonicWallTimeDoesNotGoBack() {
        let w = MonotonicWallTime()
        let a = w.seconds(), b = w.seconds()
        #expect(b >= a)
    }
}
