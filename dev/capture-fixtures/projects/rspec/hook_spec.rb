# before(:all) raises: rspec fails both examples of the group; 1 example outside passes
RSpec.describe 'with broken hook' do
  before(:all) { raise 'setup failed' }
  it('a') { expect(1).to eq(1) }
  it('b') { expect(1).to eq(1) }
end
RSpec.describe 'outside' do
  it('passes') { expect(1).to eq(1) }
end
