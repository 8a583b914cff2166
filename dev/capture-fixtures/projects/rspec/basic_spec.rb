# 3 pass, 2 fail, 1 pending (skip), 1 pending (not yet implemented) in nested groups
RSpec.describe 'math' do
  describe 'adding' do
    it('adds') { expect(1 + 1).to eq(2) }
    it('adds zero') { expect(1 + 0).to eq(1) }
  end
  it('multiplies') { expect(2 * 2).to eq(4) }
  it('fails equal') { expect(1 + 1).to eq(3) }
  it('raises') { raise 'boom' }
  it('is skipped', skip: 'not today') { expect(1).to eq(1) }
  it 'is not yet implemented'
end
