// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Contracts the tests and benchmarks deploy to produce mixed chain activity.
contract SimpleToken {
    mapping(address => uint256) public balanceOf;
    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(uint256 supply) {
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        balanceOf[msg.sender] -= value;
        balanceOf[to] += value;
        emit Transfer(msg.sender, to, value);
        return true;
    }
}

contract Child {
    uint256 public x;
    constructor(uint256 x_) payable {
        x = x_;
    }
}

contract Factory {
    event Created(address child);

    function create(uint256 x) external payable returns (address c) {
        c = address(new Child{value: msg.value}(x));
        emit Created(c);
    }

    function create2(uint256 x, bytes32 salt) external returns (address c) {
        c = address(new Child{salt: salt}(x));
        emit Created(c);
    }

    /// Creates a child, then reverts: the creation must not be recorded.
    function createThenRevert() external {
        new Child(1);
        revert("undone");
    }
}

contract Forwarder {
    function forward(address payable to) external payable {
        (bool ok, ) = to.call{value: msg.value}("");
        require(ok, "forward failed");
    }

    receive() external payable {}
}

contract Doomed {
    constructor() payable {}

    function destroy(address payable to) external {
        selfdestruct(to);
    }
}
