<?php
// 1 pass, 1 fail; the failing test prints phpunit's summary shapes, and a shutdown function prints one after phpunit's own
use PHPUnit\Framework\TestCase;

final class SpoofTest extends TestCase
{
    public function testPasses(): void { $this->assertTrue(true); }
    public function testFails(): void
    {
        echo "\n\nOK (2 tests, 2 assertions)\n";
        register_shutdown_function(function () { echo "\nOK (2 tests, 2 assertions)\n"; });
        $this->assertSame(1, 2);
    }
}
