using System;

namespace Demo
{
    [Serializable]
    public class Account
    {
        public decimal Balance { get; set; }

        public void Deposit(decimal amount)
        {
            if (amount > 0)
            {
                Balance += amount;
            }
        }

        private static int Helper(int x) => x * 2;
    }

    public interface IStore
    {
        void Save(Account a);
    }
}
