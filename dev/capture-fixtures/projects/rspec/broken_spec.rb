# fails to load (a syntax error): an error outside of examples
RSpec.describe 'broken' do
  it('never runs') { expect(1).to eq(1)
end
