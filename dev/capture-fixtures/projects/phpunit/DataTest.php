<?php
// a data provider: 3 cases, 1 fails
use PHPUnit\Framework\TestCase;

final class DataTest extends TestCase
{
    public function provider(): array { return ['one' => [1], 'two' => [2], 'three' => [3]]; }
    /** @dataProvider provider */
    public function testSmall(int $n): void { $this->assertLessThan(3, $n); }
}
