require "json"

module Shop
  class Cart
    attr_reader :items

    def initialize
      @items = []
    end

    def self.empty
      new
    end

    def add(item)
      @items << item
    end
  end
end
