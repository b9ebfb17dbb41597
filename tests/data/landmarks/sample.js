const fs = require("fs");

function* counter() {
  yield 1;
}

async function main() {
  describe("thing", () => {
    it("works", () => {});
  });
}

class Stack {
  push(item) {
    this.items.push(item);
  }
}

const handler = function (event) {
  return event;
};

module.exports = { main };
