package com.example;

import java.util.List;

@Deprecated
public class Sample<T> extends Base implements Runnable {
    private final int count = 0;

    public Sample(int count) {
        super(count);
    }

    @Override
    public void run() {
        if (count > 0) {
            System.out.println(count);
        }
        List<T> items = make();
    }

    static <U> List<U> make() {
        return null;
    }

    interface Listener {
        void onEvent(String name);
    }

    enum Mode { ON, OFF }
}
