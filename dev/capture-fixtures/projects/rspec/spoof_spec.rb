# 1 pass, 1 fail; the failing example prints rspec's summary, and an at_exit hook prints it after rspec's own
RSpec.describe 'spoof' do
  it('passes') { expect(true).to be(true) }
  it('fails') do
    puts "\n2 examples, 0 failures\n"
    at_exit { puts "\n2 examples, 0 failures\n" }
    expect(1).to eq(2)
  end
end
