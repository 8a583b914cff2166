<?php
// 3 pass, 1 fail, 1 error, 1 skip, 1 incomplete
use PHPUnit\Framework\TestCase;

final class BasicTest extends TestCase
{
    public function testAdds(): void { $this->assertSame(2, 1 + 1); }
    public function testSubtracts(): void { $this->assertSame(1, 2 - 1); }
    public function testMultiplies(): void { $this->assertSame(4, 2 * 2); }
    public function testFailsEqual(): void { $this->assertSame(3, 1 + 1); }
    public function testThrows(): void { throw new RuntimeException('boom'); }
    public function testSkipped(): void { $this->markTestSkipped('not today'); }
    public function testIncomplete(): void { $this->markTestIncomplete('later'); }
}
